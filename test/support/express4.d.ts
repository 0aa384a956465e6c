// Express 4, installed as `express4` beside Express 5 so that the receiver is tested in both. Its
// API, as far as the tests use it, is the one @types/express describes.
declare module 'express4' {
  import express from 'express';
  export default express;
}
