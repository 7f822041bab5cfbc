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

export function encodeMessage(schema: MessageSchema, value: Decoded): Buffer {
  const out = new Writer();
  for (const [name, { no, type }] of Object.entries(schema)) {
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

export function decodeMessage(schema: MessageSchema, data: Uint8Array): Decoded {
  const byNumber = new Map(Object.entries(schema).map(([name, field]) => [field.no, { name, type: field.type }]));
  const result: Decoded = {};
  const reader = new Reader(data);
  while (!reader.done()) {
    const tag = Number(reader.varint());
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
          const entryTag = Number(entry.varint());
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

class Writer {
  readonly #chunks: Buffer[] = [];

  scalar(no: number, type: Scalar, value: unknown): void {
    if (type === 'string') this.bytes(no, Buffer.from(String(value), 'utf8'));
    else if (type === 'bytes') this.bytes(no, value as Uint8Array);
    else if (type === 'double') {
      this.varint(BigInt((no << 3) | FIXED64));
      const buffer = Buffer.alloc(8);
      buffer.writeDoubleLE(Number(value));
      this.#chunks.push(buffer);
    } else {
      this.varint(BigInt((no << 3) | VARINT));
      this.varint(type === 'bool' ? (value ? 1n : 0n) : BigInt.asUintN(64, BigInt(Math.trunc(Number(value)))));
    }
  }

  bytes(no: number, data: Uint8Array): void {
    this.varint(BigInt((no << 3) | LENGTH));
    this.varint(BigInt(data.length));
    this.#chunks.push(Buffer.from(data.buffer, data.byteOffset, data.length));
  }

  varint(value: bigint): void {
    const bytes: number[] = [];
    let rest = value;
    do {
      const low = Number(rest & 0x7fn);
      rest >>= 7n;
      bytes.push(rest > 0n ? low | 0x80 : low);
    } while (rest > 0n);
    this.#chunks.push(Buffer.from(bytes));
  }

  finish(): Buffer {
    return Buffer.concat(this.#chunks);
  }
}

class Reader {
  #at = 0;
  readonly data: Uint8Array;

  constructor(data: Uint8Array) {
    this.data = data;
  }

  done(): boolean {
    return this.#at >= this.data.length;
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

  lengthDelimited(wire: number): Uint8Array {
    if (wire !== LENGTH) throw new ProtobufError(`wire type ${wire} where a length-delimited field was expected`);
    const length = Number(this.varint());
    if (length > this.data.length - this.#at) throw new ProtobufError('length past the end of the message');
    const slice = this.data.subarray(this.#at, this.#at + length);
    this.#at += length;
    return slice;
  }

  scalar(type: Scalar, wire: number): unknown {
    if (type === 'string') return Buffer.from(this.lengthDelimited(wire)).toString('utf8');
    if (type === 'bytes') return Buffer.from(this.lengthDelimited(wire));
    if (type === 'double') {
      if (wire !== FIXED64) throw new ProtobufError(`wire type ${wire} for a double`);
      const slice = this.#take(8);
      return Buffer.from(slice.buffer, slice.byteOffset, 8).readDoubleLE(0);
    }
    if (wire !== VARINT) throw new ProtobufError(`wire type ${wire} for a varint field`);
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

  #take(count: number): Uint8Array {
    if (count > this.data.length - this.#at) throw new ProtobufError('truncated fixed-width field');
    const slice = this.data.subarray(this.#at, this.#at + count);
    this.#at += count;
    return slice;
  }
}
