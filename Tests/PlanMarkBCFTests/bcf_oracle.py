"""The BCF tests' independent side: IfcOpenShell's bcf-client (PyPI) reads PlanMark's files and writes files for PlanMark
to read; Python's zipfile writes the hostile ones.

  bcf_oracle.py read FILE          every topic, field, comment, snapshot (size, decoded by zlib) and snippet, as JSON
  bcf_oracle.py write FILE 2.1|3.0 a file bcf-client made (two topics of another tool); prints what it wrote, as JSON
  bcf_oracle.py hostile FOLDER     files that must be refused: not a zip, a zip bomb, a path out of the zip, XML entities
"""
import datetime
import json
import struct
import sys
import uuid
import zipfile
import zlib
from pathlib import Path

def text(value):
    return None if value is None else str(value)


def png_facts(data):
    """Width, height and whether the PNG decodes: its IDAT inflated to the size its IHDR says (8-bit RGB or RGBA)."""
    if data is None:
        return None
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return {"png": False}
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4, 0: 1, 4: 2}[colour] * depth // 8
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    return {"png": True, "width": width, "height": height, "decodes": len(raw) == height * (1 + width * channels)}


def read(path):
    import bcf.bcfxml
    bcf_file = bcf.bcfxml.load(Path(path))
    version = bcf_file.version.version_id
    topics = []
    for guid, handler in bcf_file.topics.items():
        topic = handler.topic
        if version == "3.0":
            labels = list(topic.labels.label) if topic.labels else []
            references = [{"guid": r.guid, "url": r.url, "description": r.description}
                          for r in (topic.document_references.document_reference if topic.document_references else [])]
        else:
            labels = list(topic.labels)
            references = [{"guid": r.guid, "url": r.referenced_document, "description": r.description, "external": r.is_external}
                          for r in topic.document_reference]
        snippet = handler.bim_snippet
        topics.append({
            "folder": guid, "guid": topic.guid, "title": topic.title, "status": topic.topic_status, "type": topic.topic_type,
            "priority": topic.priority, "index": topic.index, "labels": labels,
            "creationDate": text(topic.creation_date), "creationAuthor": topic.creation_author,
            "modifiedDate": text(topic.modified_date), "modifiedAuthor": topic.modified_author,
            "dueDate": text(topic.due_date), "assignedTo": topic.assigned_to, "description": topic.description,
            "documentReferences": references,
            "comments": [{"guid": c.guid, "date": text(c.date), "author": c.author, "text": c.comment} for c in handler.comments],
            "viewpoints": [{"guid": v.guid, "snapshot": png_facts(v.snapshot)} for v in handler.viewpoints.values()],
            "snippetType": topic.bim_snippet.snippet_type if topic.bim_snippet else None,
            "snippet": json.loads(snippet) if snippet else None,
        })
    project = bcf_file.project
    print(json.dumps({"version": version, "project": project.name if project else None, "topics": topics}))


def write(path, version):
    """Two topics as another tool makes them: no PlanMark placement, authors as e-mail addresses, a comment each."""
    import bcf.bcfxml
    if version == "3.0":
        from bcf.v3.bcfxml import BcfXml
        import bcf.v3.model as mdl
    else:
        from bcf.v2.bcfxml import BcfXml
        import bcf.v2.model as mdl
    from xsdata.models.datatype import XmlDateTime
    bcf_file = BcfXml.create_new("Tower B")
    spec = [
        {"title": "Clash: duct & beam", "description": "Duct runs through beam B12.\nReroute above.", "author": "ola@design.example",
         "type": "Clash", "status": "Active", "priority": "Major",
         "comments": [("ola@design.example", "Please check on site."), ("kim@acme.example", "Confirmed, rerouting.")]},
        {"title": "Missing fire stop", "description": "", "author": "kim@acme.example", "type": "Issue", "status": "Closed",
         "priority": "Minor", "comments": [("kim@acme.example", "Done.")]},
    ]
    written = []
    for item in spec:
        handler = bcf_file.add_topic(item["title"], item["description"], item["author"], item["type"], item["status"])
        handler.topic.priority = item["priority"]
        comments = []
        for author, words in item["comments"]:
            comment = mdl.Comment(guid=str(uuid.uuid4()), date=XmlDateTime.from_datetime(datetime.datetime(2026, 11, 2, 9, 30)),
                                  author=author, comment=words)
            comments.append(comment)
        if version == "3.0":
            handler.topic.comments = mdl.TopicComments(comment=comments)
        else:
            handler.comments = comments
        written.append({"guid": handler.guid, "title": item["title"], "description": item["description"], "author": item["author"],
                        "type": item["type"], "status": item["status"], "priority": item["priority"],
                        "comments": [{"author": a, "text": t} for a, t in item["comments"]]})
    bcf_file.save(Path(path))
    print(json.dumps(written))


VERSION = b'<?xml version="1.0" encoding="UTF-8"?><Version VersionId="2.1"><DetailedVersion>2.1</DetailedVersion></Version>'
GUID = "3f2c6f0e-8a51-4c55-9d8f-1b2a3c4d5e6f"


def markup(title):
    return ('<?xml version="1.0" encoding="UTF-8"?><Markup><Topic Guid="%s" TopicStatus="Open"><Title>%s</Title>'
            '<CreationDate>2026-11-02T09:30:00Z</CreationDate><CreationAuthor>ola@design.example</CreationAuthor>'
            '</Topic></Markup>' % (GUID, title)).encode()


def hostile(folder):
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "not-a-zip.bcf").write_bytes(b"Title,Status\nCrack,open\n")
    with zipfile.ZipFile(folder / "no-version.bcf", "w") as z:
        z.writestr(GUID + "/markup.bcf", markup("No version file"))
    # 80 MiB of zeros deflated to about 80 KB: over the 64 MiB an entry, and a thousand times its size.
    with zipfile.ZipFile(folder / "bomb.bcf", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("bcf.version", VERSION)
        z.writestr(GUID + "/markup.bcf", markup("Bomb"))
        z.writestr(GUID + "/snapshot.png", b"\0" * (80 << 20))
    with zipfile.ZipFile(folder / "escape.bcf", "w") as z:
        z.writestr("bcf.version", VERSION)
        z.writestr("../" + GUID + "/markup.bcf", markup("Escapes the folder"))
    with zipfile.ZipFile(folder / "absolute.bcf", "w") as z:
        z.writestr("bcf.version", VERSION)
        z.writestr("/tmp/" + GUID + "/markup.bcf", markup("Absolute path"))
    external = ('<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE Markup [<!ENTITY secret SYSTEM "file:///etc/passwd">]>'
                '<Markup><Topic Guid="%s"><Title>&secret;</Title><CreationDate>2026-11-02T09:30:00Z</CreationDate>'
                '<CreationAuthor>x@y.example</CreationAuthor></Topic></Markup>' % GUID).encode()
    with zipfile.ZipFile(folder / "external-entity.bcf", "w") as z:
        z.writestr("bcf.version", VERSION)
        z.writestr(GUID + "/markup.bcf", external)
    laughs = '<!ENTITY lol "lol">' + "".join('<!ENTITY lol%d "%s">' % (i, ("&lol%d;" % (i - 1) if i > 1 else "&lol;") * 10)
                                             for i in range(1, 10))
    expansion = ('<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE Markup [%s]><Markup><Topic Guid="%s"><Title>&lol9;</Title>'
                 '<CreationDate>2026-11-02T09:30:00Z</CreationDate><CreationAuthor>x@y.example</CreationAuthor></Topic></Markup>'
                 % (laughs, GUID)).encode()
    with zipfile.ZipFile(folder / "entity-expansion.bcf", "w") as z:
        z.writestr("bcf.version", VERSION)
        z.writestr(GUID + "/markup.bcf", expansion)
    # A UTF-16 document, whose declaration a scan of the bytes for "<!DOCTYPE" would not see.
    with zipfile.ZipFile(folder / "utf16.bcf", "w") as z:
        z.writestr("bcf.version", VERSION)
        z.writestr(GUID + "/markup.bcf", external.decode().replace("UTF-8", "UTF-16").encode("utf-16"))
    # A header that lies: markup.bcf inflates to 4 MiB, and both its headers say 1,000 bytes.
    liar = folder / "liar.bcf"
    with zipfile.ZipFile(liar, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("bcf.version", VERSION)
        z.writestr(GUID + "/markup.bcf", markup("Liar") + b" " * (4 << 20))
    data = bytearray(liar.read_bytes())
    name = (GUID + "/markup.bcf").encode()
    local = data.rfind(b"PK\x03\x04", 0, data.find(name))
    struct.pack_into("<I", data, local + 22, 1000)
    central = data.rfind(b"PK\x01\x02", 0, data.rfind(name))
    struct.pack_into("<I", data, central + 24, 1000)
    liar.write_bytes(bytes(data))
    print(json.dumps(sorted(p.name for p in folder.iterdir())))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "read":
        read(sys.argv[2])
    elif command == "write":
        write(sys.argv[2], sys.argv[3])
    elif command == "hostile":
        hostile(sys.argv[2])
    else:
        sys.exit("usage: bcf_oracle.py read FILE | write FILE 2.1|3.0 | hostile FOLDER")
