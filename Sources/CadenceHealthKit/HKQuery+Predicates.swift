//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// How a date predicate compares samples with its bounds (HealthKit's `HKQueryOptions`).
///
/// With `S` and `E` the bounds and `s`, `e` a sample's start and end: no option selects
/// `e >= S && s < E`; ``strictStartDate`` selects `s >= S && s < E`; ``strictEndDate``
/// `e >= S && e < E`; both select `s >= S && e < E`.
public struct HKQueryOptions: OptionSet, Sendable, Hashable {
    /// The options' bits.
    public let rawValue: UInt

    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The sample must start within the bounds.
    public static let strictStartDate = HKQueryOptions(rawValue: 1 << 0)
    /// The sample must end within the bounds.
    public static let strictEndDate = HKQueryOptions(rawValue: 1 << 1)
}

/// The comparisons the quantity, category and metadata predicates take: the comparison cases of
/// Foundation's `NSComparisonPredicate.Operator`, by the same names, so a call such as
/// `predicateForQuantitySamples(with: .greaterThanOrEqualTo, quantity: limit)` reads as it does
/// with HealthKit. (Linux Foundation deprecates `NSComparisonPredicate`.)
public enum HKComparisonOperator: Sendable, Hashable {
    /// `<`
    case lessThan
    /// `<=`
    case lessThanOrEqualTo
    /// `>`
    case greaterThan
    /// `>=`
    case greaterThanOrEqualTo
    /// `==`
    case equalTo
    /// `!=`
    case notEqualTo
}

/// The limit that means no limit (HealthKit's `HKObjectQueryNoLimit`).
public let HKObjectQueryNoLimit = 0

/// The sort key of a sample's start date, for `NSSortDescriptor(key:ascending:)`.
public let HKSampleSortIdentifierStartDate = "startDate"

/// The sort key of a sample's end date, for `NSSortDescriptor(key:ascending:)`.
public let HKSampleSortIdentifierEndDate = "endDate"

/// The device property `name`, for ``HKQuery/predicateForObjects(withDeviceProperty:allowedValues:)``.
public let HKDevicePropertyKeyName = "name"
/// The device property `manufacturer`.
public let HKDevicePropertyKeyManufacturer = "manufacturer"
/// The device property `model`.
public let HKDevicePropertyKeyModel = "model"
/// The device property `hardwareVersion`.
public let HKDevicePropertyKeyHardwareVersion = "hardwareVersion"
/// The device property `softwareVersion`.
public let HKDevicePropertyKeySoftwareVersion = "softwareVersion"

extension HKQuery {
    /// Samples in a date range; `nil` leaves a bound open. See ``HKQueryOptions`` for how the
    /// sample's dates meet the bounds.
    public static func predicateForSamples(withStart startDate: Date?, end endDate: Date?,
                                           options: HKQueryOptions = []) -> NSPredicate {
        var dateOptions: SamplePredicate.DateOptions = []
        if options.contains(.strictStartDate) { dateOptions.insert(.strictStartDate) }
        if options.contains(.strictEndDate) { dateOptions.insert(.strictEndDate) }
        return CadencePredicate(.samples(start: startDate, end: endDate, options: dateOptions))
    }

    /// Objects recorded by `source`.
    public static func predicateForObjects(from source: HKSource) -> NSPredicate {
        predicateForObjects(from: [source])
    }

    /// Objects recorded by any of `sources` (matched by name).
    public static func predicateForObjects(from sources: Set<HKSource>) -> NSPredicate {
        CadencePredicate(.sources(named: sources.map(\.name)))
    }

    /// Objects recorded by a device whose property `key` (one of the `HKDevicePropertyKey…`
    /// constants: name, manufacturer, model, hardware or software version) is one of
    /// `allowedValues`. Other keys are not kept by the store: the query reports them as an error.
    public static func predicateForObjects(withDeviceProperty key: String, allowedValues: Set<String>) -> NSPredicate {
        guard let property = SamplePredicate.DeviceProperty(rawValue: key) else {
            return UnsupportedPredicate("the device property '\(key)'")
        }
        return CadencePredicate(.devices(property, in: allowedValues))
    }

    /// Objects recorded by any of `devices`: each device's known fields must all match.
    public static func predicateForObjects(from devices: Set<HKDevice>) -> NSPredicate {
        let matches = devices.map { device in
            let fields: [(SamplePredicate.DeviceProperty, String?)] = [
                (.name, device.name), (.manufacturer, device.manufacturer), (.model, device.model),
                (.hardwareVersion, device.hardwareVersion), (.softwareVersion, device.softwareVersion),
            ]
            return fields.reduce(SamplePredicate.all) { predicate, field in
                field.1.map { predicate && .devices(field.0, in: [$0]) } ?? predicate
            }
        }
        guard let first = matches.first else { return CadencePredicate(!.all) }
        return CadencePredicate(matches.dropFirst().reduce(first) { $0 || $1 })
    }

    /// The object with this UUID.
    public static func predicateForObject(with uuid: UUID) -> NSPredicate {
        predicateForObjects(with: [uuid])
    }

    /// The objects with these UUIDs.
    public static func predicateForObjects(with uuids: Set<UUID>) -> NSPredicate {
        CadencePredicate(.uuids(uuids))
    }

    /// Objects whose metadata has `key`.
    public static func predicateForObjects(withMetadataKey key: String) -> NSPredicate {
        CadencePredicate(.metadata(keyExists: key))
    }

    /// Objects whose metadata value for `key` is one of `allowedValues` (compared as text, as
    /// the store keeps metadata values).
    public static func predicateForObjects(withMetadataKey key: String, allowedValues: [Any]) -> NSPredicate {
        CadencePredicate(.metadata(key: key, in: allowedValues.map(MetadataText.text(of:))))
    }

    /// Objects whose metadata value for `key` compares with a number; a value that is not a
    /// number (or an `HKQuantity`) selects nothing.
    public static func predicateForObjects(withMetadataKey key: String, operatorType: HKComparisonOperator,
                                           value: Any) -> NSPredicate {
        let number: Double? = switch value {
        case let number as Double: number
        case let number as Int: Double(number)
        case let number as NSNumber: number.doubleValue
        case let quantity as HKQuantity: quantity.value
        default: nil
        }
        guard let number else { return CadencePredicate(!.all) }
        return CadencePredicate(.metadata(key: key, SamplePredicate.Comparison(operatorType), number))
    }

    /// Quantity samples whose quantity compares with `quantity` (converted to the type's unit).
    ///
    /// A quantity whose unit is outside the unit grammar makes a predicate that the query
    /// reports as an error.
    public static func predicateForQuantitySamples(with operatorType: HKComparisonOperator,
                                                   quantity: HKQuantity) -> NSPredicate {
        guard let cadence = quantity.cadence else {
            return UnsupportedPredicate("predicateForQuantitySamples with the quantity \(quantity)")
        }
        return CadencePredicate(.quantity(SamplePredicate.Comparison(operatorType), cadence))
    }

    /// Category samples whose value compares with `value`.
    ///
    /// Orderings (`lessThan` and the others) select among the values -1 to 255, which covers
    /// every HealthKit category value.
    public static func predicateForCategorySamples(with operatorType: HKComparisonOperator,
                                                   value: Int) -> NSPredicate {
        let comparison = SamplePredicate.Comparison(operatorType)
        return CadencePredicate(.categoryValue(in: (-1...255).filter { comparison.orders($0, value) }))
    }

    /// Category samples whose value is one of `values`.
    public static func predicateForCategorySamples(equalTo values: Set<Int>) -> NSPredicate {
        CadencePredicate(.categoryValue(in: values))
    }

    /// CDA documents whose title is exactly `title`.
    public static func predicateForCDADocuments(withTitle title: String) -> NSPredicate {
        CadencePredicate(.documentTitle(title))
    }

    /// CDA documents whose patient name (given names, then the family name) is exactly `patientName`.
    public static func predicateForCDADocuments(withPatientName patientName: String) -> NSPredicate {
        CadencePredicate(.documentPatientName(patientName))
    }

    /// CDA documents whose first author's name is exactly `authorName`.
    public static func predicateForCDADocuments(withAuthorName authorName: String) -> NSPredicate {
        CadencePredicate(.documentAuthorName(authorName))
    }

    /// CDA documents whose custodian organisation's name is exactly `custodianName`.
    public static func predicateForCDADocuments(withCustodianName custodianName: String) -> NSPredicate {
        CadencePredicate(.documentCustodianName(custodianName))
    }

    /// Clinical records of the FHIR resource type `resourceType`.
    public static func predicateForClinicalRecords(withFHIRResourceType resourceType: HKFHIRResourceType) -> NSPredicate {
        CadencePredicate(.fhirResourceType(resourceType.rawValue))
    }
}

/// A predicate a factory could not express: the query reports it as an error.
final class UnsupportedPredicate: NSPredicate {
    /// What was asked for.
    let request: String

    init(_ request: String) {
        self.request = request
        super.init(value: false)
    }

    /// Not archived: decoding one gives `nil`.
    required init?(coder: NSCoder) { nil }
}

extension SamplePredicate.Comparison {
    /// The comparison an operator names.
    init(_ operatorType: HKComparisonOperator) {
        switch operatorType {
        case .lessThan: self = .lessThan
        case .lessThanOrEqualTo: self = .lessThanOrEqual
        case .greaterThan: self = .greaterThan
        case .greaterThanOrEqualTo: self = .greaterThanOrEqual
        case .equalTo: self = .equal
        case .notEqualTo: self = .notEqual
        }
    }

    /// Whether `left` compares with `right` this way.
    func orders(_ left: Int, _ right: Int) -> Bool {
        switch self {
        case .lessThan: left < right
        case .lessThanOrEqual: left <= right
        case .equal: left == right
        case .notEqual: left != right
        case .greaterThanOrEqual: left >= right
        case .greaterThan: left > right
        }
    }
}

/// Metadata values as the store keeps them: text.
enum MetadataText {
    /// The text of a metadata value: strings as they are, numbers in their shortest form,
    /// quantities as value and unit, dates in ISO 8601.
    static func text(of value: Any) -> String {
        switch value {
        case let text as String: text
        case let number as Int: String(number)
        case let number as Double: number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case let flag as Bool: flag ? "1" : "0"
        case let number as NSNumber: number.stringValue
        case let quantity as HKQuantity: quantity.description
        case let date as Date: date.formatted(.iso8601)
        default: String(describing: value)
        }
    }
}
