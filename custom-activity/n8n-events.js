/*
 * n8n events for ABBYY Vantage, version 1.
 *
 * Paste this whole file into a Custom activity of a Process skill. When a transaction reaches the
 * activity, the script tells n8n (the ABBYY Vantage Instant Trigger node) at once, in a small
 * signed event: what happened, the transaction ID, the document IDs and the time. It sends no
 * field values, and n8n trusts only the transaction ID: it reads everything else from the Vantage
 * API with its own credential.
 *
 * Placed AFTER the Review activity it reports "transaction.processed". Placed BEFORE the Review
 * activity, change the one line under Settings to "transaction.manualReview".
 *
 * It never fails your transaction: every error is caught and logged, it never sets
 * Context.ErrorMessage, and when n8n cannot be reached it gives up after a bounded number of
 * attempts (the polling trigger's Safety Net option then delivers the transaction later).
 *
 * Only ECMAScript 5.1 and only the members ABBYY documents (object-model page: "ECMAScript 5.1").
 * Where each member is described, under
 * https://docs.abbyy.com/vantage/documentation/skill-designer/process/custom-activity/
 *   [OM]   object-model  the language; the limits (runtime, HTTP requests); an uncaught exception
 *                        interrupts the transaction
 *   [CTX]  context       Context.Transaction, Context.GetSecret, Context.LogMessage,
 *                        Context.CreateHttpRequest (and Context.ErrorMessage, never set here)
 *   [TX]   transaction   Transaction.Id, Transaction.Documents, Transaction.RegistrationParameters
 *   [PRM]  parameter     Parameter.Value (a registration parameter's value)
 *   [DOC]  document      Document.DocumentId
 *   [HTTP] http-request  HttpRequest.Url, Method, Timeout, ThrowExceptionOnFailed, Status,
 *                        ResponseText, SetHeader, SetStringContent, Send
 * custom-activity/README.md in the package's repository explains every part and the setup.
 */

// ---- Settings --------------------------------------------------------------------------------

// The one line to change: "transaction.processed" after Review, "transaction.manualReview" before.
var EVENT = "transaction.processed";

// Names of the secrets in Vantage (Configuration > Environment Variables). [CTX] GetSecret
var SECRET_NAME = "n8n-events-secret"; // required: the key the event is signed with
var URL_NAME = "n8n-events-url"; // the Instant Trigger's Production URL (https)

// A transaction registration parameter holding a waiting n8n execution's resume URL. [TX] [PRM]
var RESUME_PARAMETER = "n8nResumeUrl";

var MAX_ATTEMPTS = 3; // per address
var RETRY_WINDOW_MS = 60000; // no attempt starts more than 60 s after the first one
var MAX_DOCUMENT_IDS = 100; // keeps the event far below the trigger's 16 KiB limit
var LOG_PREFIX = "n8n events: ";

// ---- The run ---------------------------------------------------------------------------------

function main() {
	var secret = readSecret(SECRET_NAME);
	if (!secret) {
		log("no secret named " + SECRET_NAME + " (Configuration > Environment Variables); nothing sent");
		return;
	}
	var addresses = [];
	var eventsUrl = readSecret(URL_NAME).trim();
	if (eventsUrl) addresses.push({ name: "events URL", url: eventsUrl });
	var resumeUrl = readResumeUrl().trim();
	if (resumeUrl) addresses.push({ name: "resume URL", url: resumeUrl });
	if (addresses.length === 0) {
		log("no secret named " + URL_NAME + " and no " + RESUME_PARAMETER + " parameter; nothing sent");
		return;
	}
	var event = buildEvent();
	var body = JSON.stringify(event);
	for (var i = 0; i < addresses.length; i++) deliver(addresses[i], event, body, secret);
}

// The event (the trigger's contract, specVersion 1). No field values, no secret.
function buildEvent() {
	var transactionId = String(Context.Transaction.Id); // [TX] Id
	var event = {
		specVersion: 1,
		event: EVENT,
		// One per run; every attempt repeats it, so n8n recognises a resent event.
		eventId: transactionId + "." + EVENT + "." + randomBase36(12),
		transactionId: transactionId
	};
	var documents = readDocumentIds();
	if (documents) {
		event.documentIds = documents.ids;
		event.documentCount = documents.count;
	}
	event.sentAt = new Date().toISOString();
	return event;
}

// Up to MAX_ATTEMPTS posts to one address, one right after the other (the script engine has no
// timer or sleep, and a busy wait would spend the expression budget [OM]), none started more than
// RETRY_WINDOW_MS after the first. A 2xx ends it (202 accepted, 409 delivered before); so does a
// refusal (400, 401, 404, 413, 415...: sending the same again cannot help). No answer, a time-out,
// 408, 429 and 5xx are tried again.
function deliver(address, event, body, secret) {
	var where = address.name + " (" + hostOf(address.url) + ")";
	var first = new Date().getTime();
	for (var attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
		if (attempt > 1 && new Date().getTime() - first > RETRY_WINDOW_MS) {
			log(where + ": gave up after " + (attempt - 1) + " attempt(s) and 60 s");
			return;
		}
		var answer = post(address.url, event, body, secret);
		if (answer.status >= 200 && answer.status < 300) {
			log(where + ": " + (answer.status === 202 ? "accepted" : "answered " + answer.status) +
				" (attempt " + attempt + ")");
			return;
		}
		if (answer.status === 409) {
			log(where + ": already delivered (409, attempt " + attempt + ")");
			return;
		}
		if (answer.status !== 0 && answer.status !== 408 && answer.status !== 429 && answer.status < 500) {
			log(where + ": refused with " + answer.status + ", not retried; n8n said: " + clip(answer.text));
			return;
		}
		log(where + ": attempt " + attempt + " failed (" +
			(answer.status ? "HTTP " + answer.status : answer.error) + ")");
	}
	log(where + ": gave up after " + MAX_ATTEMPTS + " attempts");
}

// One signed POST. Returns { status } (0 when there was no answer) with the answer's text, or the
// error. [HTTP]: Timeout is in minutes (default 1); with ThrowExceptionOnFailed = false a non-2xx
// answer does not throw and Status tells it; a connection failure or a time-out always throws.
function post(url, event, body, secret) {
	var timestamp = String(Math.floor(new Date().getTime() / 1000));
	var signature = hmacSha256Hex(secret, "v1:" + timestamp + ":" + event.eventId + ":" + event.transactionId);
	try {
		var request = Context.CreateHttpRequest(); // [CTX]
		request.Url = url;
		request.Method = "POST";
		request.Timeout = 1;
		request.ThrowExceptionOnFailed = false;
		request.SetHeader("Content-Type", "application/json");
		request.SetHeader("X-Vantage-Timestamp", timestamp);
		request.SetHeader("X-Vantage-Signature", "v1=" + signature);
		request.SetStringContent(body);
		request.Send(); // synchronous
		return { status: Number(request.Status) || 0, text: request.ResponseText };
	} catch (e) {
		return { status: 0, error: errorText(e) };
	}
}

// ---- Reading from Vantage, each read tolerant of a missing value -----------------------------

// [CTX] GetSecret. What it does for a name that does not exist is not documented: "" either way.
function readSecret(name) {
	try {
		var value = Context.GetSecret(name);
		return value ? String(value) : "";
	} catch (e) {
		return "";
	}
}

// [TX] RegistrationParameters: a dictionary of Parameter objects by name; [PRM] Value.
function readResumeUrl() {
	try {
		var parameter = Context.Transaction.RegistrationParameters[RESUME_PARAMETER];
		return parameter && parameter.Value ? String(parameter.Value) : "";
	} catch (e) {
		return ""; // an engine may throw for a key it does not hold
	}
}

// [TX] Documents (inside For Each Document: the current one only); [DOC] DocumentId.
function readDocumentIds() {
	try {
		var documents = Context.Transaction.Documents;
		var ids = [];
		for (var i = 0; i < documents.length && i < MAX_DOCUMENT_IDS; i++) {
			ids.push(String(documents[i].DocumentId));
		}
		return { ids: ids, count: documents.length };
	} catch (e) {
		log("could not read the document IDs (" + errorText(e) + "); the event names the transaction only");
		return null;
	}
}

// [CTX] LogMessage: a line in the transaction's event log (Skill Monitor). Never the secret or the
// signature. A failing log must not fail the transaction either.
function log(message) {
	try {
		Context.LogMessage(LOG_PREFIX + message);
	} catch (e) {
		// nothing else to do
	}
}

// ---- Small helpers ---------------------------------------------------------------------------

// The host of a URL, for the log (never the path or the query: a resume URL carries a token).
function hostOf(url) {
	var match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@\/?#]*@)?([^\/?#]*)/i.exec(url);
	return match ? match[1] : "an address that is not a URL";
}

function errorText(e) {
	return clip(e && e.message ? e.message : e);
}

function clip(text) {
	text = String(text === undefined || text === null ? "" : text);
	return text.length > 200 ? text.substring(0, 200) + "..." : text;
}

function randomBase36(length) {
	var out = "";
	while (out.length < length) out += "0123456789abcdefghijklmnopqrstuvwxyz".charAt(Math.floor(Math.random() * 36));
	return out;
}

// ---- HMAC-SHA256 (RFC 2104, FIPS 180-4) in plain ES5: Vantage's script engine has no crypto ---

// Lowercase hex of HMAC-SHA256(key, message), both strings taken as UTF-8.
function hmacSha256Hex(key, message) {
	return toHex(hmacSha256(utf8Bytes(key), utf8Bytes(message)));
}

function hmacSha256(keyBytes, messageBytes) {
	var key = keyBytes.length > 64 ? sha256(keyBytes) : keyBytes;
	var inner = [];
	var outer = [];
	for (var i = 0; i < 64; i++) {
		var b = i < key.length ? key[i] : 0;
		inner.push(b ^ 0x36);
		outer.push(b ^ 0x5c);
	}
	return sha256(outer.concat(sha256(inner.concat(messageBytes))));
}

// A string's UTF-8 bytes; a lone surrogate becomes U+FFFD, as in every UTF-8 encoder.
function utf8Bytes(text) {
	var bytes = [];
	for (var i = 0; i < text.length; i++) {
		var c = text.charCodeAt(i);
		if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
			var low = text.charCodeAt(i + 1);
			if (low >= 0xdc00 && low <= 0xdfff) {
				c = 0x10000 + (c - 0xd800) * 0x400 + (low - 0xdc00);
				i++;
			}
		}
		if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
		if (c < 0x80) {
			bytes.push(c);
		} else if (c < 0x800) {
			bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
		} else if (c < 0x10000) {
			bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
		} else {
			bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
		}
	}
	return bytes;
}

var SHA256_K = [
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
];

// SHA-256 of an array of bytes, as an array of 32 bytes.
function sha256(bytes) {
	var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
	// Padding: 0x80, zeros up to 56 mod 64, then the length in bits as 64 bits, big-endian.
	var m = bytes.concat([0x80]);
	while (m.length % 64 !== 56) m.push(0);
	var bitsHigh = Math.floor(bytes.length / 0x20000000);
	var bitsLow = (bytes.length * 8) >>> 0;
	m.push(bitsHigh >>> 24, (bitsHigh >>> 16) & 255, (bitsHigh >>> 8) & 255, bitsHigh & 255);
	m.push(bitsLow >>> 24, (bitsLow >>> 16) & 255, (bitsLow >>> 8) & 255, bitsLow & 255);
	var w = [];
	for (var block = 0; block < m.length; block += 64) {
		for (var t = 0; t < 64; t++) {
			if (t < 16) {
				var j = block + t * 4;
				w[t] = (m[j] << 24) | (m[j + 1] << 16) | (m[j + 2] << 8) | m[j + 3];
			} else {
				var s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
				var s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
				w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
			}
		}
		var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
		for (t = 0; t < 64; t++) {
			var t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[t] + w[t]) | 0;
			var t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
			k = g;
			g = f;
			f = e;
			e = (d + t1) | 0;
			d = c;
			c = b;
			b = a;
			a = (t1 + t2) | 0;
		}
		h[0] = (h[0] + a) | 0;
		h[1] = (h[1] + b) | 0;
		h[2] = (h[2] + c) | 0;
		h[3] = (h[3] + d) | 0;
		h[4] = (h[4] + e) | 0;
		h[5] = (h[5] + f) | 0;
		h[6] = (h[6] + g) | 0;
		h[7] = (h[7] + k) | 0;
	}
	var out = [];
	for (var i = 0; i < 8; i++) out.push(h[i] >>> 24, (h[i] >>> 16) & 255, (h[i] >>> 8) & 255, h[i] & 255);
	return out;
}

function rotr(x, n) {
	return (x >>> n) | (x << (32 - n));
}

function toHex(bytes) {
	var hex = "";
	for (var i = 0; i < bytes.length; i++) hex += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
	return hex;
}

// ---- Start: nothing may escape (an uncaught exception would fail the transaction [OM]) --------

try {
	main();
} catch (e) {
	log("stopped by an unexpected error, nothing more sent: " + errorText(e));
}
