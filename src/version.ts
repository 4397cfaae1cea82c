/** The service's version, as gv.ping, gv.describe and the organization gate report it. */
export const SERVICE_VERSION = '0.1.0';
