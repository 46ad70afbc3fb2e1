/* Scorekeeper's service worker: the app opens from the home screen, and a sheet seen
   before can be read when the server is away, always saying when it was last updated.

   - The app's own files (style, scripts, icons) are kept so an offline page looks right.
   - A score sheet (/games/<id>) is asked of the server first, always. Each time the
     server answers, the sheet as it stands (the fragment the phones poll, no codes in
     it) is kept with the time it was read: the page's own, between its markers
     (templates/games/sheet.html), or a changed poll's answer; nothing more is asked.
     When the server cannot be reached, that copy is shown under a banner: "Not
     connected. This sheet was last updated at ...". It is never shown as current.
   - A box form opened before is kept the same way, so a box can still be entered; its
     save goes through the form's own keeping in table.js (kept on the phone and sent
     when the connection is back): the one path for saves. Nothing but GET is touched.
     A form served offline carries an idempotency key of its own, made here on the
     phone (issue 33: the kept form's key may have been spent by a save made online
     since, and its resend was refused as "already used"), and the version and box
     number of the last sheet kept when that is newer: the entry is stored once when
     the server is back, as the next box, or meets the usual "box N was saved by
     another phone" when another phone saved one meanwhile.
   - Any other page offline: a short page that says so. */
"use strict";

var VERSION = "scorekeeper-v1";
var FILES = ["/static/app.css", "/static/htmx.min.js", "/static/table.js",
             "/static/share.js", "/static/favicon.svg", "/static/icon-192.png"];
var SHEET = /^\/games\/([^/]+)$/;
var FRAGMENT = /^\/games\/([^/]+)\/sheet$/;
var FORM = /^\/games\/[^/]+\/boxes\/new$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(VERSION).then(function (cache) { return cache.addAll(FILES); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== VERSION; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, function (c) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
  });
}

/* The page shown offline: the app's look, a banner saying how old it is, the body. */
function offlinePage(title, savedAt, body) {
  var when = savedAt ? new Date(savedAt) : null;
  var banner = when
    ? "Not connected: this is the sheet as it was at <time datetime=\"" + when.toISOString() +
      "\">" + escapeHtml(when.toUTCString()) + "</time>. It may have changed since: " +
      "it updates again once the connection is back."
    : "Not connected: the server cannot be reached, and this phone has no copy of this page.";
  return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">" +
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
    "<meta name=\"color-scheme\" content=\"light dark\">" +
    "<title>" + escapeHtml(title) + " (offline) · Scorekeeper</title>" +
    "<link rel=\"stylesheet\" href=\"/static/app.css\">" +
    "<script src=\"/static/table.js\" defer></script></head><body>" +
    "<main id=\"main\" class=\"offline\"><p class=\"offline-note\" role=\"alert\">" + banner +
    " <a href=\"\">Try again</a></p>" + body + "</main></body></html>";
}

function html(text, status) {
  return new Response(text, { status: status || 200,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

/* Keep the sheet as it stands now (its fragment), with the time it was read. */
function keepSheet(id, body) {
  return caches.open(VERSION).then(function (cache) {
    return cache.put("/offline/games/" + id, new Response(body, {
      headers: { "Content-Type": "text/html; charset=utf-8", "X-Saved-At": new Date().toISOString() }
    }));
  });
}

/* A sheet page's fragment: what lies between its markers (none: not a sheet). */
var START = "<!--sheet-->", END = "<!--/sheet-->";
function sheetOf(page) {
  var start = page.indexOf(START), end = page.indexOf(END);
  return start >= 0 && end > start ? page.slice(start + START.length, end) : null;
}

function keptSheet(id) {
  return caches.open(VERSION).then(function (cache) { return cache.match("/offline/games/" + id); })
    .then(function (kept) {
      if (!kept) { return html(offlinePage("Score sheet", null, ""), 503); }
      return kept.text().then(function (body) {
        return html(offlinePage("Score sheet", kept.headers.get("X-Saved-At"), body));
      });
    });
}

/* A key made on this phone: 16 random bytes in base64url, as the server makes them. */
function freshKey() {
  var bytes = new Uint8Array(16);
  self.crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode.apply(null, bytes))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/* Set a hidden field's value in a kept page (the form's own markup, from WTForms). */
function setField(body, name, value) {
  var field = new RegExp('(<input[^>]*\\bname="' + name + '"[^>]*\\bvalue=")[^"]*(")');
  return body.replace(field, function (all, before, after) { return before + value + after; });
}

function fieldOf(body, name) {
  var found = body.match(new RegExp('<input[^>]*\\bname="' + name + '"[^>]*\\bvalue="(\\d+)"'));
  return found ? parseInt(found[1], 10) : null;
}

/* The box form as kept, served offline: a new key, and the version and next box number
   of the last sheet kept when it is newer than the form. */
function keptForm(request, id) {
  return Promise.all([
    caches.match(request),
    caches.open(VERSION).then(function (cache) { return cache.match("/offline/games/" + id); })
  ]).then(function (found) {
    var form = found[0];
    if (!form) { return html(offlinePage("Record a box", null, ""), 503); }
    return Promise.all([form.text(), found[1] ? found[1].text() : ""]).then(function (bodies) {
      var body = setField(bodies[0], "key", freshKey());
      var version = (bodies[1].match(/id="sheet"[^>]*?data-version="(\d+)"/) || [])[1];
      var next = (bodies[1].match(/id="sheet"[^>]*?data-next="(\d+)"/) || [])[1];
      var formVersion = fieldOf(body, "version");
      if (version && next && (formVersion === null || parseInt(version, 10) > formVersion)) {
        body = setField(setField(body, "version", version), "number", next);
      }
      return html(body, form.status);
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }  // saves: table.js keeps them, never here
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  var sheet = url.pathname.match(SHEET);
  var fragment = url.pathname.match(FRAGMENT);
  if (request.mode === "navigate" && sheet) {
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok) {
        event.waitUntil(response.clone().text().then(function (page) {
          var body = sheetOf(page);
          if (body !== null) { return keepSheet(sheet[1], body); }
        }));
      }
      return response;
    }, function () { return keptSheet(sheet[1]); }));
  } else if (fragment && request.headers.get("HX-Request")) {
    // The poll: a new sheet is kept as the latest; offline, the poll fails as it should.
    event.respondWith(fetch(request).then(function (response) {
      if (response.status === 200) {
        event.waitUntil(response.clone().text().then(function (body) { return keepSheet(fragment[1], body); }));
      }
      return response;
    }));
  } else if (request.mode === "navigate" && FORM.test(url.pathname)) {
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        event.waitUntil(caches.open(VERSION).then(function (cache) { return cache.put(request, copy); }));
      }
      return response;
    }, function () {
      return keptForm(request, url.pathname.split("/")[2]);
    }));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () {
      return html(offlinePage("Scorekeeper", null, ""), 503);
    }));
  } else if (url.pathname.indexOf("/static/") === 0) {
    // The app's files: the network first (a new version shows at once), the copy offline.
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok && FILES.indexOf(url.pathname) >= 0) {
        var copy = response.clone();
        event.waitUntil(caches.open(VERSION).then(function (cache) { return cache.put(url.pathname, copy); }));
      }
      return response;
    }, function () {
      return caches.match(url.pathname).then(function (kept) { return kept || Response.error(); });
    }));
  }
});
