/**
 * Every way an archive can fail inspection, each the `<detail>` of one
 * `archive_invalid:<detail>`. The inspector can answer nothing else.
 */
export const ARCHIVE_FAILURES = [
  // limits
  'archive_too_large', 'too_many_entries', 'member_too_large', 'expanded_too_large', 'ratio_exceeded',
  'aggregate_ratio_exceeded', 'path_too_long', 'path_too_deep',
  // names
  'name_empty', 'name_backslash', 'name_colon', 'name_absolute', 'name_control_character', 'name_dot_segment',
  'name_trailing_space_or_dot', 'name_reserved', 'name_not_utf8', 'name_mismatch', 'duplicate_name', 'name_collision',
  'file_directory_collision',
  // entries
  'encrypted', 'unsupported_method', 'symlink', 'special_file', 'directory_with_bytes', 'length_mismatch', 'crc_mismatch',
  'local_header_mismatch', 'overlapping_entries',
  // structure
  'end_of_central_directory_missing', 'trailing_data', 'zip64_inconsistent', 'multi_disk', 'corrupt_central_directory',
  'truncated', 'corrupt_local_header', 'corrupt_data', 'corrupt_archive',
  // the skill layout
  'skill_md_missing', 'skill_md_multiple', 'outside_skill_folder',
] as const;

export type ArchiveFailure = (typeof ARCHIVE_FAILURES)[number];
