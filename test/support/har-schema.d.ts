// har-schema ships JSON schemas without types: an object of them, by name.
declare module 'har-schema' {
  const schemas: Record<string, object>;
  export default schemas;
}
