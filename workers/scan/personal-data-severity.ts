/**
 * The severities an operator may give personal data (`scan.personal_data_severity`), apart
 * from the detector so the configuration table does not load its libraries. Veto is not
 * offered: a veto finding is never cleared, and personal data may be there with consent.
 */
export const PERSONAL_DATA_SEVERITIES = ['low', 'medium', 'high'] as const;
export type PersonalDataSeverity = (typeof PERSONAL_DATA_SEVERITIES)[number];
export const DEFAULT_PERSONAL_DATA_SEVERITY: PersonalDataSeverity = 'high';
