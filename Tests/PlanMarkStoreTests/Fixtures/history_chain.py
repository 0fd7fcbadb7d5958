"""The history chain as docs/history.md defines it, written apart from the store's Swift code, for expected values.

Reads a JSON array of history rows, each [drawingId, number, lastNumber, action, at, author, oldValue, newValue]
(in id order), and prints each row's hash, one a line: SHA-256 of the previous hash (32 zero bytes before the first)
and the row's canonical bytes (per column: 0x00 for NULL, else 0x01, the UTF-8 length as 8 bytes big-endian, the
UTF-8 text; integers in decimal).
"""
import hashlib
import json
import struct
import sys

previous = bytes(32)
for row in json.load(open(sys.argv[1], encoding="utf-8")):
    canonical = b""
    for value in row:
        if value is None:
            canonical += b"\x00"
        else:
            text = str(value).encode("utf-8")
            canonical += b"\x01" + struct.pack(">Q", len(text)) + text
    previous = hashlib.sha256(previous + canonical).digest()
    print(previous.hex())
