//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Where a sample came from: its source, the source's version and the device. The store keeps
/// each distinct provenance once, in a dictionary, and columns refer to it by number.
public struct Provenance: Hashable, Sendable, Codable {
    /// The writing app or device.
    public var source: Source
    /// The writer's version, if known.
    public var sourceVersion: String?
    /// The recording hardware, if known.
    public var device: Device?

    /// Creates a provenance.
    public init(source: Source, sourceVersion: String? = nil, device: Device? = nil) {
        self.source = source
        self.sourceVersion = sourceVersion
        self.device = device
    }
}

extension Provenance {
    /// Byte-exact: provenances whose source versions differ only in Unicode normalisation are
    /// different (see How Cadence computes, Identity).
    public static func == (lhs: Provenance, rhs: Provenance) -> Bool {
        lhs.source == rhs.source && lhs.sourceVersion.isIdentical(to: rhs.sourceVersion) && lhs.device == rhs.device
    }

    /// Hashes the UTF-8 bytes, consistent with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combineBytes(of: sourceVersion)
        hasher.combine(device)
    }
}
