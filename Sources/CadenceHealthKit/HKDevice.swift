//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The hardware that recorded samples (HealthKit's `HKDevice`).
public final class HKDevice: NSObject, Sendable {
    /// The device in the Cadence module.
    let cadence: Device

    init(cadence: Device) {
        self.cadence = cadence
    }

    /// A device from its fields; the store keeps the name, manufacturer, model, hardware and
    /// software versions, and drops the others.
    public init(name: String?, manufacturer: String?, model: String?, hardwareVersion: String?,
                firmwareVersion: String?, softwareVersion: String?, localIdentifier: String?,
                udiDeviceIdentifier: String?) {
        cadence = Device(name: name, manufacturer: manufacturer, model: model, hardwareVersion: hardwareVersion,
                         softwareVersion: softwareVersion)
    }

    /// The device's name, such as "Apple Watch".
    public var name: String? { cadence.name }
    /// Its manufacturer, such as "Apple Inc.".
    public var manufacturer: String? { cadence.manufacturer }
    /// Its model, such as "Watch".
    public var model: String? { cadence.model }
    /// Its hardware version, such as "Watch6,2".
    public var hardwareVersion: String? { cadence.hardwareVersion }
    /// Its software version.
    public var softwareVersion: String? { cadence.softwareVersion }
    /// Not kept by the store: always `nil`.
    public var firmwareVersion: String? { nil }
    /// Not kept by the store: always `nil`.
    public var localIdentifier: String? { nil }
    /// Not kept by the store: always `nil`.
    public var udiDeviceIdentifier: String? { nil }

    /// Whether `object` is a device with the same fields. The object address an export wrote into
    /// the device's description is not one: it differs from sample to sample of one device.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKDevice)?.cadence.splittingObjectAddress.device == cadence.splittingObjectAddress.device
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int { cadence.splittingObjectAddress.device.hashValue }
}

/// A source at one version (HealthKit's `HKSourceRevision`).
public final class HKSourceRevision: NSObject, Sendable {
    /// The app or device.
    public let source: HKSource
    /// Its version, if known.
    public let version: String?

    /// A source at `version`.
    public init(source: HKSource, version: String?) {
        self.source = source
        self.version = version
    }

    /// Whether `object` is the same source at the same version.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKSourceRevision else { return false }
        return other.source == source && other.version == version
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int { source.hash ^ (version?.hashValue ?? 0) }
}
