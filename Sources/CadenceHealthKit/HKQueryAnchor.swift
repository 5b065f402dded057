//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// A position in the store's changes (HealthKit's `HKQueryAnchor`), as an anchored query
/// returns it; pass it to the next query to get only what changed since.
///
/// It archives with `NSKeyedArchiver` (secure coding) to keep between runs:
///
///     let data = try NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)
///     let anchor = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
///
/// An anchor belongs to its store: another store's anchor makes the query report an error.
public final class HKQueryAnchor: NSObject, NSSecureCoding, NSCopying, Sendable {
    /// The position in the Cadence module.
    let cadence: QueryAnchor

    init(_ anchor: QueryAnchor) {
        cadence = anchor
    }

    /// Anchors decode only the keys they encoded.
    public static var supportsSecureCoding: Bool { true }

    private static let storeKey = "store"
    private static let sequenceKey = "sequence"

    /// Archives the anchor: its store's identifier and its position.
    public func encode(with coder: NSCoder) {
        coder.encode(cadence.storeIdentifier.uuidString, forKey: Self.storeKey)
        coder.encode(cadence.sequence, forKey: Self.sequenceKey)
    }

    /// Unarchives an anchor; `nil` for an archive that does not hold one.
    public init?(coder: NSCoder) {
        guard let store = coder.decodeObject(of: NSString.self, forKey: Self.storeKey),
              let identifier = UUID(uuidString: String(describing: store)) else { return nil }
        let sequence = coder.decodeInt64(forKey: Self.sequenceKey)
        guard sequence >= 0 else { return nil }
        cadence = QueryAnchor(storeIdentifier: identifier, sequence: sequence)
    }

    /// The anchor itself: anchors are immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// Whether `object` is the same position in the same store.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKQueryAnchor)?.cadence == cadence }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int { cadence.hashValue }

    /// The Cadence token, `<store uuid>:<sequence>`.
    public override var description: String { cadence.token }
}
