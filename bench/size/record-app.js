// The recording preload, as `node --import @employee-recognition/sdk/record app.js` loads it: the
// recorder, its redaction and the HAR writer. It never enters an app's bundle.
import '@employee-recognition/sdk/record';
