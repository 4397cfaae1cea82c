/** Where the reverse-proxy test's nginx is: GATE_TEST_NGINX, else /usr/sbin/nginx. */
export declare function nginxPath(): string;
/** The one sentence saying how to install it. */
export declare const NGINX_MISSING: string;
/** Installs Debian's nginx when missing (as root), else exits 1 with NGINX_MISSING. */
export declare function ensureNginx(): void;
