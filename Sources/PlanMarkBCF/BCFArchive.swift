import Foundation
import XMLCoder
import ZIPFoundation

/// A BCF file: its version and topics, written to and read from the zip's bytes.
public struct BCFArchive: Hashable, Sendable {
    public var version: BCFVersion
    /// `project.bcfp`'s project, when there is one.
    public var project: BCFProject?
    public var topics: [BCFTopic]

    public init(version: BCFVersion, project: BCFProject? = nil, topics: [BCFTopic]) {
        self.version = version
        self.project = project
        self.topics = topics
    }
}

// MARK: Writing

extension BCFArchive {
    /// The zip: `bcf.version`, `project.bcfp` when there is a project, and a folder per topic with `markup.bcf`, its
    /// viewpoints (`.bcfv`) and snapshots, and `planmark.json` when it has a placement. XML is deflated, PNGs stored.
    /// Every entry is dated `date` (what differs between two exports of the same store, but for the bytes it changes).
    /// - Complexity: O(total size of the parts).
    public func zip(date: Date) throws(BCFError) -> [UInt8] {
        do {
            let archive = try Archive(data: Data(), accessMode: .create)
            func add(_ path: String, _ bytes: [UInt8], deflate: Bool = true) throws {
                try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(bytes.count), modificationDate: date,
                                     compressionMethod: deflate ? .deflate : .none) { position, size in
                    Data(bytes[Int(position)..<Int(position) + size])
                }
            }
            try add(BCFFiles.version, try versionXML())
            if let project { try add(BCFFiles.project, try projectXML(project)) }
            for topic in topics {
                let folder = topic.guid + "/"
                switch version {
                case .v2_1: try add(folder + BCFFiles.markup, try BCFXML.encode(BCFMarkup21(topic), root: "Markup", file: folder + BCFFiles.markup))
                case .v3_0: try add(folder + BCFFiles.markup, try BCFXML.encode(BCFMarkup30(topic), root: "Markup", file: folder + BCFFiles.markup))
                }
                for (index, viewpoint) in topic.viewpoints.enumerated() {
                    let files = BCFFiles.viewpoint(index, guid: viewpoint.guid)
                    try add(folder + files.visualization,
                            try BCFXML.encode(BCFMarkup21.CommentViewpoint(guid: viewpoint.guid), root: "VisualizationInfo",
                                              file: folder + files.visualization))
                    if let snapshot = viewpoint.snapshot { try add(folder + files.snapshot, snapshot, deflate: false) }
                }
                if let placement = topic.placement { try add(folder + BCFPlacement.fileName, try placement.json()) }
            }
            guard let data = archive.data else { throw BCFError.writeFailed("the zip was not made") }
            return Array(data)
        } catch let error as BCFError {
            throw error
        } catch {
            throw .writeFailed("\(error)")
        }
    }

    func versionXML() throws(BCFError) -> [UInt8] {
        switch version {
        case .v2_1: return try BCFXML.encode(Version21(versionID: "2.1", detailedVersion: "2.1"), root: "Version", file: BCFFiles.version)
        case .v3_0: return try BCFXML.encode(Version30(versionID: "3.0"), root: "Version", file: BCFFiles.version)
        }
    }

    func projectXML(_ project: BCFProject) throws(BCFError) -> [UInt8] {
        let element = ProjectElement(projectID: project.id, name: project.name)
        switch version {
        case .v2_1: return try BCFXML.encode(ProjectExtension(project: element, extensionSchema: ""), root: "ProjectExtension", file: BCFFiles.project)
        case .v3_0: return try BCFXML.encode(ProjectInfo(project: element), root: "ProjectInfo", file: BCFFiles.project)
        }
    }
}

// MARK: Reading

extension BCFArchive {
    /// Reads a BCF 2.0, 2.1 or 3.0 file from `bytes`, under `limits`: the size, entry count and every entry's declared
    /// size are checked before anything is inflated, and what an entry inflates to is counted as it comes (a header
    /// that lies stops the read). Every path is checked before it is used. Topics come in the order of their folders
    /// in the zip; a topic's viewpoints' snapshots are read when they are PNGs, its `planmark.json` when its BIM
    /// snippet names one.
    /// With `snapshots` false the viewpoints' PNGs are not read (an import does not keep them).
    /// - Complexity: O(size of the parts read), at most `limits.totalBytes`.
    public init(reading bytes: [UInt8], limits: BCFLimits = BCFLimits(), snapshots readsSnapshots: Bool = true) throws(BCFError) {
        guard bytes.count <= limits.fileBytes else {
            throw .tooLarge("the file is \(bytes.count) bytes; at most \(limits.fileBytes) are read")
        }
        guard bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) else {
            throw .notBCF("not a zip file")
        }
        let archive: Archive
        do { archive = try Archive(data: Data(bytes), accessMode: .read) } catch { throw .notBCF("not a zip file (\(error))") }
        var reader = EntryReader(archive: archive, limits: limits)
        try reader.index()
        guard let versionBytes = try reader.read(BCFFiles.version) else { throw .notBCF("no bcf.version in the zip") }
        let versionText: String
        if let parsed = try? BCFXML.decode(Version21.self, from: versionBytes, file: BCFFiles.version) {
            versionText = parsed.versionID ?? parsed.detailedVersion ?? ""
        } else {
            try BCFXML.check(versionBytes, file: BCFFiles.version)
            throw .invalidXML(file: BCFFiles.version, detail: "no VersionId")
        }
        guard let version = BCFVersion(text: versionText) else { throw .unsupportedVersion(versionText) }
        self.version = version
        if let projectBytes = try reader.read(BCFFiles.project) {
            switch version {
            case .v2_1: project = try BCFXML.decode(ProjectExtension.self, from: projectBytes, file: BCFFiles.project).project.map(BCFProject.init)
            case .v3_0: project = BCFProject(try BCFXML.decode(ProjectInfo.self, from: projectBytes, file: BCFFiles.project).project)
            }
        } else {
            project = nil
        }
        var topics: [BCFTopic] = []
        for folder in reader.topicFolders {
            let path = folder + "/" + BCFFiles.markup
            guard let markup = try reader.read(path) else { continue }
            var topic: BCFTopic
            var snapshots: [String?]
            var snippet: String?
            switch version {
            case .v2_1:
                let parsed = try BCFXML.decode(BCFMarkup21.self, from: markup, file: path)
                (topic, snapshots, snippet) = parsed.topic(file: path)
            case .v3_0:
                let parsed = try BCFXML.decode(BCFMarkup30.self, from: markup, file: path)
                (topic, snapshots, snippet) = parsed.topic(file: path)
            }
            for index in topic.viewpoints.indices where readsSnapshots {
                guard let name = snapshots[index] else { continue }
                let bytes = try reader.read(try Self.inFolder(folder, name))
                topic.viewpoints[index].snapshot = bytes.flatMap { $0.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? $0 : nil }
            }
            if let snippet, let bytes = try reader.read(try Self.inFolder(folder, snippet)) {
                topic.placement = BCFPlacement(json: bytes)
            }
            topics.append(topic)
        }
        self.topics = topics
    }

    /// `name` (a file a topic's markup names) in `folder`: a plain name, or refused.
    static func inFolder(_ folder: String, _ name: String) throws(BCFError) -> String {
        let path = folder + "/" + name
        guard !name.isEmpty, !name.contains("/"), !name.contains("\\"), name != "..", name != "." else { throw .unsafePath(path) }
        return path
    }
}
