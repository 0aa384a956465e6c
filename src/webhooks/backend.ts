/** Signed content: the `${id}.${timestamp}.` prefix followed by the body exactly as received. */
export interface SignedContent {
  prefix: string;
  body: string | Uint8Array;
}

/** The two primitives verification needs, so each runtime can use its fastest implementation. */
export interface HmacBackend {
  /** HMAC-SHA256 of `content` under `key`; `secret` is the key's text form, for caching. */
  sign(secret: string, key: Uint8Array<ArrayBuffer>, content: SignedContent): Promise<Uint8Array>;
  /** Compares in time that depends only on the lengths. */
  equal(a: Uint8Array, b: Uint8Array): boolean;
}
