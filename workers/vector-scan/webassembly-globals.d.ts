/**
 * The part of the WebAssembly JS API the Hamming kernel uses. Node provides WebAssembly as
 * a global, but its type declarations live in TypeScript's DOM library, which this
 * project (a server) does not load.
 */
declare namespace WebAssembly {
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number; shared?: boolean });
    /** A SharedArrayBuffer when the memory is shared. */
    readonly buffer: ArrayBuffer | SharedArrayBuffer;
    grow(delta: number): number;
  }
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
}
