/** `gate proof verify`'s exit codes, for its --help (read before the command's own module loads). */
export const PROOF_EXIT_HELP = 'Exit 0 when everything verified, 1 when a proof or signature was refused (its code and why printed), 3 on a bad argument (an unreadable file, not an answer this command knows).';
