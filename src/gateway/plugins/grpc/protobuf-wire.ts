// A small schema-driven protobuf (proto3) codec for the coprocess messages: scalars, nested messages, repeated
// fields and map<string, V>. Encoding writes proto3 defaults as absent (as every protobuf library does); decoding
// accepts packed and unpacked repeated scalars and skips unknown fields, so a plugin server built from a newer Tyk
// .proto still talks to gw. Nesting is bounded by the schemas (no message contains itself); sizes are bounded by
// the caller (grpc_recv_max_size). A malformed message throws ProtobufError.

export type Scalar = 'string' | 'bytes' | 'bool' | 'int32' | 'int64' | 'double' | 'enum';

export type FieldType =
  | { kind: 'scalar'; type: Scalar }
  | { kind: 'message'; schema: () => MessageSchema }
  | { kind: 'repeated'; type: Scalar }
  | { kind: 'repeatedMessage'; schema: () => MessageSchema }
  | { kind: 'map'; value: Scalar }
  | { kind: 'messageMap'; schema: () => MessageSchema };

/** Field name (as in the .proto) -> its number and type. */
export type MessageSchema = Record<string, { no: number; type: FieldType }>;

export type Decoded = Record<string, unknown>;

export class ProtobufError extends Error {}

const VARINT = 0;
const FIXED64 = 1;
const LENGTH = 2;
const FIXED32 = 5;

const listed = new WeakMap<MessageSchema, [string, { no: number; type: FieldType }][]>();

export function encodeMessage(schema: MessageSchema, value: Decoded): Buffer {
  const out = new Writer();
  let fields = listed.get(schema);
  if (!fields) {
    fields = Object.entries(schema);
    listed.set(schema, fields);
  }
  for (const [name, { no, type }] of fields) {
    const field = value[name];
    if (field === undefined || field === null) continue;
    switch (type.kind) {
      case 'scalar':
        if (!isDefault(type.type, field)) out.scalar(no, type.type, field);
        break;
      case 'message':
        out.bytes(no, encodeMessage(type.schema(), field as Decoded));
        break;
      case 'repeated':
        for (const item of field as unknown[]) out.scalar(no, type.type, item);
        break;
      case 'repeatedMessage':
        for (const item of field as Decoded[]) out.bytes(no, encodeMessage(type.schema(), item));
        break;
      case 'map':
      case 'messageMap':
        if (type.kind === 'map' && type.value === 'string') {
          for (const [key, item] of Object.entries(field as Record<string, unknown>)) out.stringEntry(no, key, String(item));
          break;
        }
        for (const [key, item] of Object.entries(field as Record<string, unknown>)) {
          const entry = new Writer();
          entry.scalar(1, 'string', key);
          if (type.kind === 'map') entry.scalar(2, type.value, item);
          else entry.bytes(2, encodeMessage(type.schema(), item as Decoded));
          out.bytes(no, entry.finish());
        }
        break;
    }
  }
  return out.finish();
}

const numbered = new WeakMap<MessageSchema, Map<number, { name: string; type: FieldType }>>();

export function decodeMessage(schema: MessageSchema, data: Uint8Array): Decoded {
  let byNumber = numbered.get(schema);
  if (!byNumber) {
    byNumber = new Map(Object.entries(schema).map(([name, field]) => [field.no, { name, type: field.type }]));
    numbered.set(schema, byNumber);
  }
  const result: Decoded = {};
  const reader = new Reader(data);
  while (!reader.done()) {
    const tag = reader.small();
    const no = tag >>> 3;
    const wire = tag & 7;
    const field = byNumber.get(no);
    if (!field) {
      reader.skip(wire);
      continue;
    }
    const { name, type } = field;
    switch (type.kind) {
      case 'scalar':
        result[name] = reader.scalar(type.type, wire);
        break;
      case 'message':
        result[name] = decodeMessage(type.schema(), reader.lengthDelimited(wire));
        break;
      case 'repeated': {
        const list = (result[name] ??= []) as unknown[];
        if (wire === LENGTH && type.type !== 'string' && type.type !== 'bytes') {
          const packed = new Reader(reader.lengthDelimited(wire));
          while (!packed.done()) list.push(packed.scalar(type.type, type.type === 'double' ? FIXED64 : VARINT));
        } else list.push(reader.scalar(type.type, wire));
        break;
      }
      case 'repeatedMessage':
        ((result[name] ??= []) as Decoded[]).push(decodeMessage(type.schema(), reader.lengthDelimited(wire)));
        break;
      case 'map':
      case 'messageMap': {
        const entry = new Reader(reader.lengthDelimited(wire));
        let key = '';
        let item: unknown = type.kind === 'map' ? defaultOf(type.value) : {};
        while (!entry.done()) {
          const entryTag = entry.small();
          const entryWire = entryTag & 7;
          if (entryTag >>> 3 === 1) key = entry.scalar('string', entryWire) as string;
          else if (entryTag >>> 3 === 2)
            item = type.kind === 'map' ? entry.scalar(type.value, entryWire) : decodeMessage(type.schema(), entry.lengthDelimited(entryWire));
          else entry.skip(entryWire);
        }
        ((result[name] ??= {}) as Record<string, unknown>)[key] = item;
        break;
      }
    }
  }
  return result;
}

function isDefault(type: Scalar, value: unknown): boolean {
  if (type === 'bytes') return (value as Uint8Array).length === 0;
  return value === defaultOf(type);
}

function defaultOf(type: Scalar): unknown {
  switch (type) {
    case 'string':
      return '';
    case 'bytes':
      return Buffer.alloc(0);
    case 'bool':
      return false;
    default:
      return 0;
  }
}

function varintSize(value: number): number {
  let size = 1;
  for (let rest = value; rest > 0x7f; rest >>>= 7) size++;
  return size;
}

/** Appends to one growing buffer: a varint below 2^31 is written without BigInt, a string without a copy. */
class Writer {
  #buffer = Buffer.allocUnsafe(256);
  #length = 0;

  scalar(no: number, type: Scalar, value: unknown): void {
    if (type === 'string') {
      const text = String(value);
      const size = Buffer.byteLength(text);
      this.varint((no << 3) | LENGTH);
      this.varint(size);
      this.#reserve(size);
      this.#length += this.#buffer.write(text, this.#length, 'utf8');
    } else if (type === 'bytes') this.bytes(no, value as Uint8Array);
    else if (type === 'double') {
      this.varint((no << 3) | FIXED64);
      this.#reserve(8);
      this.#length = this.#buffer.writeDoubleLE(Number(value), this.#length);
    } else {
      this.varint((no << 3) | VARINT);
      if (type === 'bool') this.varint(value ? 1 : 0);
      else this.varint(Math.trunc(Number(value)));
    }
  }

  /** A map<string, string> entry: {1: key, 2: value}, sized without an intermediate buffer. */
  stringEntry(no: number, key: string, value: string): void {
    const keySize = Buffer.byteLength(key);
    const valueSize = Buffer.byteLength(value);
    const size = (keySize > 0 ? 1 + varintSize(keySize) + keySize : 0) + (valueSize > 0 ? 1 + varintSize(valueSize) + valueSize : 0);
    this.varint((no << 3) | LENGTH);
    this.varint(size);
    if (keySize > 0) this.scalar(1, 'string', key);
    if (valueSize > 0) this.scalar(2, 'string', value);
  }

  bytes(no: number, data: Uint8Array): void {
    this.varint((no << 3) | LENGTH);
    this.varint(data.length);
    this.#reserve(data.length);
    this.#buffer.set(data, this.#length);
    this.#length += data.length;
  }

  /** Negative numbers as 64-bit two's complement (ten bytes), as protobuf writes int32 and int64. */
  varint(value: number): void {
    this.#reserve(10);
    if (value >= 0 && value < 0x80000000) {
      let rest = value;
      while (rest > 0x7f) {
        this.#buffer[this.#length++] = (rest & 0x7f) | 0x80;
        rest >>>= 7;
      }
      this.#buffer[this.#length++] = rest;
      return;
    }
    let rest = BigInt.asUintN(64, BigInt(value));
    while (rest > 0x7fn) {
      this.#buffer[this.#length++] = Number(rest & 0x7fn) | 0x80;
      rest >>= 7n;
    }
    this.#buffer[this.#length++] = Number(rest);
  }

  finish(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }

  #reserve(bytes: number): void {
    if (this.#length + bytes <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#length + bytes));
    this.#buffer.copy(grown, 0, 0, this.#length);
    this.#buffer = grown;
  }
}

class Reader {
  #at = 0;
  readonly data: Buffer;

  constructor(data: Uint8Array) {
    this.data = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.length);
  }

  done(): boolean {
    return this.#at >= this.data.length;
  }

  /** A varint as a number: exact below 2^53 (every tag, length, enum and count here). */
  small(): number {
    let value = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (this.#at >= this.data.length) throw new ProtobufError('truncated varint');
      const byte = this.data[this.#at++]!;
      value |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value >>> 0;
    }
    this.#at -= 4;
    return Number(this.varint());
  }

  varint(): bigint {
    let value = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.#at >= this.data.length) throw new ProtobufError('truncated varint');
      const byte = this.data[this.#at++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return BigInt.asUintN(64, value);
    }
    throw new ProtobufError('varint longer than 10 bytes');
  }

  lengthDelimited(wire: number): Buffer {
    if (wire !== LENGTH) throw new ProtobufError(`wire type ${wire} where a length-delimited field was expected`);
    const length = this.small();
    if (length > this.data.length - this.#at) throw new ProtobufError('length past the end of the message');
    const slice = this.data.subarray(this.#at, this.#at + length);
    this.#at += length;
    return slice;
  }

  scalar(type: Scalar, wire: number): unknown {
    if (type === 'string') return this.lengthDelimited(wire).toString('utf8');
    if (type === 'bytes') return Buffer.from(this.lengthDelimited(wire));
    if (type === 'double') {
      if (wire !== FIXED64) throw new ProtobufError(`wire type ${wire} for a double`);
      return this.#take(8).readDoubleLE(0);
    }
    if (wire !== VARINT) throw new ProtobufError(`wire type ${wire} for a varint field`);
    const start = this.#at;
    const quick = this.small();
    if (this.#at - start < 5) return type === 'bool' ? quick !== 0 : quick; // below 2^28: no sign to restore
    this.#at = start;
    const raw = this.varint();
    if (type === 'bool') return raw !== 0n;
    if (type === 'int32' || type === 'enum') return Number(BigInt.asIntN(32, raw));
    return Number(BigInt.asIntN(64, raw));
  }

  skip(wire: number): void {
    if (wire === VARINT) this.varint();
    else if (wire === FIXED64) this.#take(8);
    else if (wire === LENGTH) this.lengthDelimited(wire);
    else if (wire === FIXED32) this.#take(4);
    else throw new ProtobufError(`unsupported wire type ${wire}`);
  }

  #take(count: number): Buffer {
    if (count > this.data.length - this.#at) throw new ProtobufError('truncated fixed-width field');
    const slice = this.data.subarray(this.#at, this.#at + count);
    this.#at += count;
    return slice;
  }
}
