/**
 * EXIF tag names by IFD, from exif-reader's table (generated from exiv2's list). Only the
 * names are borrowed: exif-reader's parser reads each tag's values to the end of the
 * buffer whatever its count says, so `read-exif.ts` parses on its own.
 */
import { createRequire } from 'node:module';

export type TagTable = Readonly<Record<number, string>>;

const tables = createRequire(import.meta.url)('exif-reader/tags.js') as Record<'Image' | 'Photo' | 'GPSInfo' | 'Iop', TagTable>;

export const TAG_NAMES: Readonly<Record<'Image' | 'Photo' | 'GPSInfo' | 'Iop', TagTable>> = tables;
