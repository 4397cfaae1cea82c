/** Where the browser tests' Chromium is: /usr/bin/chromium unless GATE_TEST_CHROMIUM names another. */
export declare const CHROMIUM: string;
/** The one sentence saying how to install it. */
export declare const CHROMIUM_MISSING: string;
/** Installs Debian's chromium when missing (as root), else exits 1 with CHROMIUM_MISSING. */
export declare function ensureChromium(): void;
