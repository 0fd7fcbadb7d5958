#!/usr/bin/env python3
"""The peer of planmark-server's photo upload: the same job with the Python standard library.

POST /drawings/bench/markers/1/attachments with a JPEG, PNG or PDF body: the limit checked from
Content-Length before the body is read (413), the type decided by the first bytes (415 for anything else
or a declared type that disagrees), SHA-256 of the bytes, the bytes stored once per SHA-256 in SQLite (WAL)
with an attachment row, in one transaction, and 201 {"id","sha256","size","contentType","caption"}.
Usage: upload_peer.py STORE.sqlite PORT
"""
import hashlib
import json
import sqlite3
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LIMIT = 20 << 20
DECLARED = {"image/jpeg": "image/jpeg", "image/png": "image/png", "application/pdf": "application/pdf"}


def sniff(head):
    if head[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if head[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    if head[:5] == b"%PDF-":
        return "application/pdf"
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, body):
        data = (json.dumps(body, separators=(",", ":")) + "\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        if length > LIMIT:
            self.close_connection = True
            return self.answer(413, {"error": {"code": "body-too-large", "message": "too large"}})
        body = self.rfile.read(length)
        kind = sniff(body[:8])
        declared = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind is None or (declared not in ("", "application/octet-stream") and DECLARED.get(declared) != kind):
            return self.answer(415, {"error": {"code": "unsupported-media-type", "message": "not a JPEG, PNG or PDF"}})
        digest = hashlib.sha256(body).hexdigest()
        db = self.server.db
        with db:
            db.execute("INSERT OR IGNORE INTO blob (sha256, bytes) VALUES (?, ?)", (digest, body))
            cursor = db.execute("INSERT INTO attachment (sha256, size, contentType, caption) VALUES (?, ?, ?, NULL)",
                                (digest, len(body), kind))
        self.answer(201, {"id": cursor.lastrowid, "sha256": digest, "size": len(body), "contentType": kind, "caption": None})

    def log_message(self, *args):
        pass


def main():
    db = sqlite3.connect(sys.argv[1], check_same_thread=False, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE IF NOT EXISTS blob (sha256 TEXT PRIMARY KEY, bytes BLOB NOT NULL)")
    db.execute("CREATE TABLE IF NOT EXISTS attachment (id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL, size INTEGER, contentType TEXT, caption TEXT)")
    db.isolation_level = ""
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), Handler)
    server.db = db
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
