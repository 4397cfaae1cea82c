/**
 * EXIF (a TIFF header and its IFDs: IFD0, IFD1 the thumbnail's, the Exif, GPS and
 * interoperability IFDs) read as tag lines, with the work bounded by the bytes actually
 * present: every IFD's entry table and every tag's values (count x type size) must lie
 * inside the block, else the block is refused (`MetadataInvalid`), never read as far as
 * it claims. Past the tag cap the block is refused too; past the text budget tags are
 * still checked but no longer rendered. So a block costs O(its entries + the budget),
 * whatever its counts say.
 */
import { MetadataInvalid } from './metadata-invalid.js';
import { TAG_NAMES, type TagTable } from './exif-tag-names.js';

/** Most entries in all five IFDs together; cameras write a few hundred at most. */
export const EXIF_TAGS_MAX = 1000;
/** Characters of tag lines rendered per block; the reviewer's text is clipped to this anyway. */
export const EXIF_TEXT_MAX = 16 * 1024;
/** Values shown of one multi-valued numeric tag. */
const VALUES_SHOWN = 64;

/** Bytes per value of TIFF types 1-12 (BYTE, ASCII, SHORT, LONG, RATIONAL, SBYTE, UNDEFINED, SSHORT, SLONG, SRATIONAL, FLOAT, DOUBLE). */
const TYPE_SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8];
const DATE_TAGS = new Set(['DateTime', 'DateTimeOriginal', 'DateTimeDigitized']);
const EXIF_IFD = 0x8769;
const GPS_IFD = 0x8825;
const INTEROP_IFD = 0xa005;

export interface ExifReading {
  lines: string[];
  gps: string[];
  thumbnail: boolean;
}

type Group = 'Image' | 'Thumbnail' | 'Photo' | 'GPSInfo' | 'Iop';

class Reader {
  private readonly view: DataView;
  private readonly little: boolean;
  private entries = 0;
  private budget = EXIF_TEXT_MAX;
  private unshown = 0;
  readonly lines: string[] = [];
  readonly gps: string[] = [];

  constructor(private readonly tiff: Uint8Array) {
    this.view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
    this.little = tiff[0] === 0x49;
  }

  private u16 = (at: number) => this.view.getUint16(at, this.little);
  private u32 = (at: number) => this.view.getUint32(at, this.little);

  /** Reads one IFD's entries; answers the pointers it holds and the offset of the next IFD (0: none). */
  readIfd(group: Group, at: number, names: TagTable): { pointers: Map<number, number>; next: number } {
    if (at < 8 || at + 2 > this.tiff.length) throw new MetadataInvalid(`exif_ifd_outside: ${group} IFD at ${at} of ${this.tiff.length} bytes`);
    const count = this.u16(at);
    this.entries += count;
    if (this.entries > EXIF_TAGS_MAX) throw new MetadataInvalid(`exif_too_many_tags: more than ${EXIF_TAGS_MAX}`);
    const tableEnd = at + 2 + 12 * count;
    if (tableEnd > this.tiff.length) throw new MetadataInvalid(`exif_ifd_outside: ${group} IFD of ${count} entries runs past ${this.tiff.length} bytes`);
    const pointers = new Map<number, number>();
    for (let entry = at + 2; entry < tableEnd; entry += 12) {
      const tag = this.u16(entry);
      const type = this.u16(entry + 2);
      const count = this.u32(entry + 4);
      const size = (TYPE_SIZE[type] ?? 0) * count;
      // Values of four bytes or fewer sit in the entry itself; larger ones at an offset that must fit.
      const valueAt = size <= 4 ? entry + 8 : this.u32(entry + 8);
      if (valueAt + size > this.tiff.length) {
        throw new MetadataInvalid(`exif_value_outside: tag ${tag} claims ${size} bytes at ${valueAt} of ${this.tiff.length}`);
      }
      if ((tag === EXIF_IFD || tag === GPS_IFD || tag === INTEROP_IFD) && (type === 4 || type === 13) && count === 1) {
        pointers.set(tag, this.u32(entry + 8));
      }
      this.render(group, names[tag] ?? String(tag), type, count, valueAt);
    }
    const next = tableEnd + 4 <= this.tiff.length ? this.u32(tableEnd) : 0;
    return { pointers, next };
  }

  private render(group: Group, name: string, type: number, count: number, at: number): void {
    if (this.budget <= 0) {
      this.unshown++;
      return;
    }
    const line = `${group}.${name}: ${this.value(name, type, count, at)}`;
    this.budget -= line.length + 1;
    (group === 'GPSInfo' ? this.gps : this.lines).push(line);
  }

  private value(name: string, type: number, count: number, at: number): string {
    if (type === 7) return `<${count} bytes>`;
    if (type === 2) {
      const bytes = this.tiff.subarray(at, at + Math.min(count, this.budget));
      if (bytes.some((b) => b > 0x7f)) return `<${count} bytes>`;
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1').replace(/\0+$/, '');
      const date = DATE_TAGS.has(name) ? /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text) : null;
      if (date === null) return text;
      const [, y, mo, d, h, mi, s] = date.map(Number) as number[];
      const when = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
      return Number.isNaN(when.getTime()) ? 'invalid date' : when.toISOString();
    }
    const size = TYPE_SIZE[type];
    if (size === undefined || size === 0) return `<type ${type}>`;
    const shown: string[] = [];
    for (let i = 0; i < Math.min(count, VALUES_SHOWN); i++) shown.push(String(this.number(type, at + i * size)));
    return count > VALUES_SHOWN ? `${shown.join(', ')}, …(${count - VALUES_SHOWN} more)` : shown.join(', ');
  }

  private number(type: number, at: number): number {
    const v = this.view;
    switch (type) {
      case 1: return v.getUint8(at);
      case 3: return v.getUint16(at, this.little);
      case 4: return v.getUint32(at, this.little);
      case 5: return v.getUint32(at, this.little) / v.getUint32(at + 4, this.little);
      case 6: return v.getInt8(at);
      case 8: return v.getInt16(at, this.little);
      case 9: return v.getInt32(at, this.little);
      case 10: return v.getInt32(at, this.little) / v.getInt32(at + 4, this.little);
      case 11: return v.getFloat32(at, this.little);
      default: return v.getFloat64(at, this.little);
    }
  }

  note(): void {
    if (this.unshown > 0) this.lines.push(`…(${this.unshown} more tags not shown)`);
  }
}

/**
 * Reads an EXIF block: a JPEG APP1 body ("Exif\0\0" then TIFF) or a bare TIFF (PNG eXIf,
 * WebP EXIF). A block without a TIFF header claims nothing and is named unreadable;
 * one whose IFDs or values lie outside it throws `MetadataInvalid`.
 */
export function readExif(data: Uint8Array): ExifReading {
  const start = data.length >= 6 && Buffer.from(data.buffer, data.byteOffset, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0;
  const tiff = data.subarray(start);
  const order = tiff.length >= 8 ? Buffer.from(tiff.buffer, tiff.byteOffset, 4).toString('latin1') : '';
  if (order !== 'II*\0' && order !== 'MM\0*') {
    return { lines: [`unreadable EXIF (${data.length} bytes): no TIFF header`], gps: [], thumbnail: false };
  }
  const reader = new Reader(tiff);
  const ifd0 = reader.readIfd('Image', new DataView(tiff.buffer, tiff.byteOffset).getUint32(4, order === 'II*\0'), TAG_NAMES.Image);
  const thumbnail = ifd0.next !== 0;
  if (thumbnail) reader.readIfd('Thumbnail', ifd0.next, TAG_NAMES.Image);
  const exifAt = ifd0.pointers.get(EXIF_IFD);
  if (exifAt !== undefined && exifAt > 0) {
    const interopAt = reader.readIfd('Photo', exifAt, TAG_NAMES.Photo).pointers.get(INTEROP_IFD);
    if (interopAt !== undefined && interopAt > 0) reader.readIfd('Iop', interopAt, TAG_NAMES.Iop);
  }
  const gpsAt = ifd0.pointers.get(GPS_IFD);
  if (gpsAt !== undefined && gpsAt > 0) reader.readIfd('GPSInfo', gpsAt, TAG_NAMES.GPSInfo);
  reader.note();
  return { lines: reader.lines, gps: reader.gps, thumbnail };
}
