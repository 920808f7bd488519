/* Re-verify the embedded export in this browser (docs/archive.md): every entry's SHA-256 and the
   hash chain (docs/audit.md, pbem/store/log.py), withheld records' hashes finished from their
   SHA-256 midstates, the referee's checkpoint of the head, and, where Web Crypto has Ed25519,
   the referee's signatures over the header and the checkpoint. Nothing is fetched. */
(function () {
  "use strict";
  var LOG_DOMAIN = "pbem-log-v1\u0000";
  var enc = new TextEncoder();
  var subtle = window.crypto && window.crypto.subtle;

  function hex(bytes) {
    var out = "";
    for (var i = 0; i < bytes.length; i++) { out += (bytes[i] + 256).toString(16).slice(1); }
    return out;
  }
  function unhex(text) {
    var out = new Uint8Array(text.length / 2);
    for (var i = 0; i < out.length; i++) { out[i] = parseInt(text.substr(2 * i, 2), 16); }
    return out;
  }
  function unb64(text) {
    var t = text.replace(/-/g, "+").replace(/_/g, "/").replace(/\s+/g, "");
    while (t.length % 4) { t += "="; }
    var raw = atob(t), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { out[i] = raw.charCodeAt(i); }
    return out;
  }
  function concat(parts) {
    var n = 0, i, at = 0;
    for (i = 0; i < parts.length; i++) { n += parts[i].length; }
    var out = new Uint8Array(n);
    for (i = 0; i < parts.length; i++) { out.set(parts[i], at); at += parts[i].length; }
    return out;
  }

  /* SHA-256 rounds, to finish a hash from a published midstate (Web Crypto cannot). */
  var K = [0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2];
  function rotr(x, n) { return (x >>> n) | (x << (32 - n)); }
  function compress(h, block, at) {
    var w = new Array(64), i;
    for (i = 0; i < 16; i++) {
      w[i] = (block[at + 4 * i] << 24) | (block[at + 4 * i + 1] << 16) |
             (block[at + 4 * i + 2] << 8) | block[at + 4 * i + 3];
    }
    for (i = 16; i < 64; i++) {
      var s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      var s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (i = 0; i < 64; i++) {
      var t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      var t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    return [(h[0] + a) | 0, (h[1] + b) | 0, (h[2] + c) | 0, (h[3] + d) | 0,
            (h[4] + e) | 0, (h[5] + f) | 0, (h[6] + g) | 0, (h[7] + k) | 0];
  }
  function finishMidstate(stateHex, length, tail, suffix) {
    var raw = unhex(stateHex), h = [], i;
    for (i = 0; i < 8; i++) {
      h.push((raw[4 * i] << 24) | (raw[4 * i + 1] << 16) | (raw[4 * i + 2] << 8) | raw[4 * i + 3]);
    }
    var data = concat([tail, suffix]);
    var total = length + data.length;
    var padLen = ((55 - total) % 64 + 64) % 64;
    var msg = new Uint8Array(data.length + 1 + padLen + 8);
    msg.set(data, 0);
    msg[data.length] = 0x80;
    var bits = total * 8, end = msg.length;
    for (i = 1; i <= 8; i++) { msg[end - i] = bits % 256; bits = Math.floor(bits / 256); }
    for (i = 0; i < msg.length; i += 64) { h = compress(h, msg, i); }
    var out = new Uint8Array(32);
    for (i = 0; i < 8; i++) {
      out[4 * i] = h[i] >>> 24; out[4 * i + 1] = (h[i] >>> 16) & 255;
      out[4 * i + 2] = (h[i] >>> 8) & 255; out[4 * i + 3] = h[i] & 255;
    }
    return hex(out);
  }
  function sha256(bytes) {
    if (subtle) { return subtle.digest("SHA-256", bytes).then(function (d) { return hex(new Uint8Array(d)); }); }
    var iv = "6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19";
    return Promise.resolve(finishMidstate(iv, 0, new Uint8Array(0), bytes));
  }
  function field(bytes) {
    var n = bytes.length;
    return concat([new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]), bytes]);
  }
  function pae(domain, type, body) {
    return concat([enc.encode("PBEMSIG1"), field(enc.encode(domain)), field(enc.encode(type)), field(body)]);
  }

  function Failure(message) { this.message = message; }

  async function verifyChain(data, say) {
    var text;
    try { text = new TextDecoder("utf-8", { fatal: true }).decode(data); }
    catch (e) { throw new Failure("the export is not valid UTF-8 text"); }
    var lines = text.split("\n");
    if (lines.pop() !== "") { throw new Failure("the last line has no newline: the export was cut short"); }
    var header;
    try { header = JSON.parse(lines[0]); } catch (e) { throw new Failure("line 1 (the header) is not valid JSON"); }
    if (!header || header.format !== "pbem-export-v1") { throw new Failure("line 1 is not a pbem-export-v1 header"); }
    var prev = "0".repeat(64), linked = 0, claimed = 0, seen = {}, genesis = null;
    for (var i = 1; i < lines.length; i++) {
      var line = lines[i], seq = i - 1, where = "line " + (i + 1) + " (seq " + seq + ")";
      var obj;
      try { obj = JSON.parse(line); } catch (e) { throw new Failure(where + " is not valid JSON"); }
      if (!obj || obj.seq !== seq) { throw new Failure(where + ": expected seq " + seq + ", found " + (obj && obj.seq)); }
      if (obj.prev !== prev) { throw new Failure(where + ": prev does not match the hash of the entry before (the chain is broken)"); }
      if ((obj.kind === "genesis") !== (seq === 0)) { throw new Failure(where + ": only the first entry may be the genesis entry"); }
      if (line.indexOf('{"body":') === 0) {
        var mark = ',"hash":"' + obj.hash + '"';
        var at = line.lastIndexOf(mark);
        if (typeof obj.hash !== "string" || at < 0) { throw new Failure(where + ": no hash field"); }
        var unhashed = line.slice(0, at) + line.slice(at + mark.length);
        var got = await sha256(enc.encode(LOG_DOMAIN + unhashed));
        if (got !== obj.hash) { throw new Failure(where + ": its content does not match its hash (recorded " + String(obj.hash).slice(0, 16) + "…, computed " + got.slice(0, 16) + "…)"); }
        if (seq === 0) { genesis = obj; }
      } else {
        var signed = header.withheld && header.withheld[String(seq)];
        var lineHash = await sha256(enc.encode(line + "\n"));
        if (!signed || signed !== lineHash) { throw new Failure(where + ": this withheld record is not the one the referee listed in the header"); }
        seen[String(seq)] = true;
        var mid = obj.withheld && obj.withheld.sha256;
        if (mid) {
          var suffix = ',"kind":' + JSON.stringify(obj.kind) + ',"prev":' + JSON.stringify(obj.prev) +
                       ',"seq":' + seq + ',"time":' + JSON.stringify(obj.time) + "}";
          var done = finishMidstate(mid.state, mid.length, unhex(mid.tail), enc.encode(suffix));
          if (done !== obj.hash) { throw new Failure(where + ": its hash does not follow from its SHA-256 midstate"); }
          linked++;
        } else {
          claimed++;
        }
      }
      prev = obj.hash;
    }
    var entries = lines.length - 1;
    Object.keys(header.withheld || {}).forEach(function (k) {
      if (!seen[k]) { throw new Failure("the header lists seq " + k + " as withheld but the file holds it whole"); }
    });
    var cp = header.checkpoint || {};
    if (cp.length !== entries || cp.head !== prev) {
      throw new Failure("the referee's checkpoint (" + cp.length + " entries, head " + String(cp.head).slice(0, 16) + "…) does not match the file (" + entries + " entries, head " + prev.slice(0, 16) + "…)");
    }
    say("pass", "the hash of every one of the " + entries + " entries and the chain from genesis to the head" +
        (linked ? " (" + linked + " withheld order files' hashes finished from their SHA-256 midstates)" : "") +
        (claimed ? "; " + claimed + " withheld resolutions stand on the referee's signed claim of their hash" : ""));
    say("pass", "the referee's checkpoint names this head: " + entries + " entries, head " + prev.slice(0, 16) + "…");
    return { header: header, headerLine: lines[0], genesis: genesis };
  }

  async function verifySignatures(found, say) {
    var referee = String(found.genesis.body.referee || "").trim().split(/\s+/);
    if (referee[0] === "pbem-ed25519") { referee.shift(); }
    var key;
    try {
      key = await subtle.importKey("raw", unb64(referee[0] || ""), { name: "Ed25519" }, false, ["verify"]);
    } catch (e) {
      return false;
    }
    var header = found.header;
    var mark = ',"signature":"' + header.signature + '"';
    var at = found.headerLine.indexOf(mark);
    var payload = at < 0 ? "" : found.headerLine.slice(0, at) + found.headerLine.slice(at + mark.length);
    var ok = at >= 0 && await subtle.verify({ name: "Ed25519" }, key, unhex(String(header.signature)),
      pae("pbem-export-v1", "application/vnd.pbem.export+json", enc.encode(payload)));
    if (!ok) { throw new Failure("the header's signature is not the referee's (the header, its checkpoint or its list of withheld lines was changed)"); }
    var cp = header.checkpoint;
    var cpBody = '{"game":' + JSON.stringify(header.game) + ',"head":"' + cp.head + '","length":' + cp.length + "}";
    ok = await subtle.verify({ name: "Ed25519" }, key, unb64(cp.sig),
      pae("pbem-checkpoint-v1", "application/vnd.pbem.checkpoint+json", enc.encode(cpBody)));
    if (!ok) { throw new Failure("the checkpoint's signature is not the referee's"); }
    say("pass", "the referee's Ed25519 signatures over the export header and over the checkpoint (key from the genesis entry)");
    return true;
  }

  async function run() {
    var out = document.getElementById("verify-result");
    var list = document.createElement("ul");
    var verdict = document.createElement("p");
    out.textContent = "";
    out.appendChild(verdict);
    out.appendChild(list);
    function say(cls, text) {
      var li = document.createElement("li");
      li.textContent = (cls === "pass" ? "✓ checked: " : "• not checked here: ") + text;
      list.appendChild(li);
    }
    try {
      var blob = document.getElementById("pbem-export").textContent;
      var found = await verifyChain(unb64(blob), say);
      var signed = subtle ? await verifySignatures(found, say) : false;
      if (!signed) {
        say("note", "the referee's signatures over the header and the checkpoint: this browser's Web Crypto has no Ed25519 — pbem audit checks them");
      }
      say("note", "the signature of every order file and the game's own checks of its orders, each resolution replayed by the rules core (with its draws, in a game with dice), the game master's signatures — only pbem audit checks these (run: pbem audit export.jsonl)");
      verdict.className = "pass";
      verdict.textContent = "PASSED: the export embedded in this page verifies" + (signed ? "" : " (hash chain only)") + ".";
      out.setAttribute("data-verdict", "pass");
    } catch (e) {
      verdict.className = "fail";
      verdict.textContent = "FAILED: " + (e instanceof Failure ? e.message : String(e));
      out.setAttribute("data-verdict", "fail");
    }
  }

  var button = document.getElementById("verify-button");
  if (button) { button.addEventListener("click", function () { button.disabled = true; run().finally(function () { button.disabled = false; }); }); }
})();
