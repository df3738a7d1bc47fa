// The glue between JavaScript and the nqueens-web WebAssembly module (web/wasm): one request
// object in, one answer object out, as JSON through the module's linear memory. No imports, no
// wasm-bindgen: nq_alloc gives a buffer for the request, nq_call runs it, nq_out_ptr/nq_out_len
// say where the answer is. Loaded as a plain script by the page, inside the workers, and by node.
/* exported NQEngine */
var NQEngine = (function () {
  "use strict";
  function decodeBase64(text) {
    if (typeof atob === "function") {
      var binary = atob(text);
      var bytes = new Uint8Array(binary.length);
      for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      return bytes;
    }
    return new Uint8Array(Buffer.from(text, "base64"));
  }
  function Engine(instance) {
    this.exports = instance.exports;
    this.encoder = new TextEncoder();
    this.decoder = new TextDecoder();
  }
  Engine.prototype.call = function (request) {
    var e = this.exports;
    var bytes = this.encoder.encode(JSON.stringify(request));
    var ptr = e.nq_alloc(bytes.length);
    new Uint8Array(e.memory.buffer, ptr, bytes.length).set(bytes);
    var len = e.nq_call(ptr, bytes.length);
    var out = new Uint8Array(e.memory.buffer, e.nq_out_ptr(), len);
    return JSON.parse(this.decoder.decode(out));
  };
  return {
    decodeBase64: decodeBase64,
    // bytes: the module's bytes (Uint8Array or ArrayBuffer); synchronous (fine in workers and
    // for the size of this module on the main thread of Chromium and node).
    fromBytes: function (bytes) {
      return this.fromModule(new WebAssembly.Module(bytes));
    },
    // module: a compiled WebAssembly.Module (the page compiles once and hands it to workers).
    fromModule: function (module) {
      return new Engine(new WebAssembly.Instance(module, {}));
    },
    fromBytesAsync: function (bytes) {
      return WebAssembly.instantiate(bytes, {}).then(function (result) {
        return new Engine(result.instance);
      });
    },
  };
})();
if (typeof module !== "undefined") module.exports = NQEngine;
