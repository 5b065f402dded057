//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What an import keeps until the whole file is read (records inside correlations, activity
/// summaries), moved out of memory: frames of bytes appended to an ``UnlinkedFile`` and read back
/// in order, so that an import's memory does not grow with how many of them the file holds.
///
/// Each frame is its payload's length and CRC-32 (four bytes each, little-endian), then the
/// payload. A frame that does not read back whole and with its checksum is an error naming the
/// file and the byte where it starts: a damaged file never turns into data.
///
/// - Complexity: ``append(_:)`` is O(*n*) in the payload; memory is a 64 KiB write buffer, and
///   1 MiB for a ``Reader``.
struct SpillFile {
    /// The bytes before each payload: its length and its checksum.
    static let headerBytes = 8

    private let file: UnlinkedFile
    /// Frames appended.
    private(set) var count = 0
    /// Bytes appended, buffered ones included.
    private(set) var byteCount = 0
    /// Frames not written yet.
    private var buffer: [UInt8] = []

    /// Creates an empty file in `directory`.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the file, when it cannot be created.
    init(in directory: String) throws(CadenceError) {
        file = try UnlinkedFile(in: directory)
        buffer.reserveCapacity(1 << 16)
    }

    /// The temporary file's path (it has no name left), for errors.
    var path: String { file.path }

    /// Appends a frame holding `payload`.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the file, when it cannot be written.
    mutating func append(_ payload: [UInt8]) throws(CadenceError) {
        var checksum = ZIPChecksum()
        payload.withUnsafeBytes { checksum.update($0) }
        Self.appendInteger(UInt32(truncatingIfNeeded: payload.count), to: &buffer)
        Self.appendInteger(checksum.value, to: &buffer)
        buffer += payload
        count += 1
        byteCount += Self.headerBytes + payload.count
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes the buffered frames to the file, so that readers see every frame appended.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the file, when it cannot be written.
    mutating func flush() throws(CadenceError) {
        guard !buffer.isEmpty else { return }
        try file.write(buffer[...])
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reads the frames from the first, in order.
    func reader() -> Reader { Reader(file: file, byteCount: byteCount - buffer.count) }

    /// The payloads of `count` frames of `frameBytes` bytes each (header included), starting with
    /// the frame at index `first`, in a file whose frames all have that size.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the file, when it cannot be read or a frame is damaged.
    func fixedFrames(first: Int, count: Int, frameBytes: Int) throws(CadenceError) -> [[UInt8]] {
        let offset = first * frameBytes
        let bytes = try file.read(count * frameBytes, at: offset)
        var payloads: [[UInt8]] = []
        payloads.reserveCapacity(count)
        for index in 0..<count {
            let range = try Self.payload(in: bytes, at: index * frameBytes, fileOffset: offset, path: file.path)
            guard range.upperBound - range.lowerBound + Self.headerBytes == frameBytes else {
                throw Self.damage(at: offset + index * frameBytes, "the frame has another length than its file's", path: file.path)
            }
            payloads.append(Array(bytes[range]))
        }
        return payloads
    }

    /// Reads a spill file's frames in order.
    struct Reader {
        private let file: UnlinkedFile
        /// The bytes of the file that hold frames.
        private let byteCount: Int
        /// Where `block` starts in the file.
        private var blockOffset = 0
        private var block: [UInt8] = []
        private var position = 0

        fileprivate init(file: UnlinkedFile, byteCount: Int) {
            self.file = file
            self.byteCount = byteCount
        }

        /// The next frame's payload, or `nil` after the last.
        ///
        /// - Throws: ``CadenceError`` (`io`) naming the file, when it cannot be read or the frame is damaged.
        mutating func next() throws(CadenceError) -> [UInt8]? {
            guard blockOffset + position < byteCount else { return nil }
            if let range = try? SpillFile.payload(in: block, at: position, fileOffset: blockOffset, path: file.path) {
                position = range.upperBound
                return Array(block[range])
            }
            // The frame runs past the block (or is damaged): read from it on, at least 1 MiB.
            let start = blockOffset + position
            let length = block.count >= position + SpillFile.headerBytes
                ? Int(SpillFile.integer(in: block, at: position)) + SpillFile.headerBytes : SpillFile.headerBytes
            blockOffset = start
            block = try file.read(min(max(length, 1 << 20), byteCount - start), at: start)
            let range = try SpillFile.payload(in: block, at: 0, fileOffset: start, path: file.path)
            position = range.upperBound
            return Array(block[range])
        }
    }

    /// Where the payload of the frame at `offset` of `bytes` (which start at `fileOffset` in the
    /// file) is, once its checksum matches.
    fileprivate static func payload(in bytes: [UInt8], at offset: Int, fileOffset: Int, path: String) throws(CadenceError) -> Range<Int> {
        guard offset + headerBytes <= bytes.count else {
            throw damage(at: fileOffset + offset, "the file ends inside a frame's header", path: path)
        }
        let length = Int(integer(in: bytes, at: offset))
        let start = offset + headerBytes
        guard length <= bytes.count - start else {
            throw damage(at: fileOffset + offset, "the file ends inside a frame of \(length) bytes", path: path)
        }
        var checksum = ZIPChecksum()
        bytes.withUnsafeBytes { checksum.update(UnsafeRawBufferPointer(rebasing: $0[start..<(start + length)])) }
        guard checksum.value == integer(in: bytes, at: offset + 4) else {
            throw damage(at: fileOffset + offset, "a frame's checksum does not match its bytes", path: path)
        }
        return start..<(start + length)
    }

    /// The error for a frame at `offset` of the file that cannot be trusted.
    private static func damage(at offset: Int, _ reason: String, path: String) -> CadenceError {
        CadenceError(.io, "the import's temporary file is damaged at byte \(offset): \(reason)", path: path)
    }

    /// The error for a frame whose checksum matched but whose fields do not fit it.
    static func undecodable(path: String) -> CadenceError {
        CadenceError(.io, "the import's temporary file holds a frame that does not decode", path: path)
    }

    fileprivate static func integer(in bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian }
    }

    private static func appendInteger(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
}
