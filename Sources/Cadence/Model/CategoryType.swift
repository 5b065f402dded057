//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A kind of category sample (HealthKit's `HKCategoryType`): sleep stages, stand hours, mindful
/// sessions, symptoms, cycle tracking.
///
///     let sleep = try CategoryType("sleepAnalysis")   // or "HKCategoryTypeIdentifierSleepAnalysis"
///     sleep.value(named: "asleepCore")                 // 3
///     sleep.values.map(\.shortName)                    // ["inBed", "asleepUnspecified", "awake", …]
///
/// A sample's value is HealthKit's raw integer; each known type's values and their names come
/// from a table (``CategoryType/values``), as do its tracks (<doc:HowCadenceComputes#Category-durations>). An identifier Cadence does
/// not know is still a valid type: its samples are stored with their value names verbatim.
public struct CategoryType: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The full HealthKit identifier, such as `HKCategoryTypeIdentifierSleepAnalysis`.
    public let identifier: String

    /// The prefix every HealthKit category type identifier starts with.
    public static let identifierPrefix = "HKCategoryTypeIdentifier"

    /// A type by its full identifier, known or not: an unknown one is kept verbatim (<doc:HowCadenceComputes#Categories-workouts-and-correlations>).
    public init(identifier: String) {
        self.identifier = Self.fullIdentifier(identifier)
    }

    /// Looks up a known type by its identifier, long (`HKCategoryTypeIdentifierSleepAnalysis`) or
    /// short (`sleepAnalysis`, in any letter case).
    ///
    /// - Throws: ``CadenceError/Code/unknownType`` when the identifier is not in the table.
    public init(_ identifier: String) throws {
        guard let type = CategoryType.known(identifier) else {
            throw CadenceError(.unknownType, "unknown category type '\(identifier)'")
        }
        self = type
    }

    /// The known type for an identifier, long (exact) or short (any letter case), or `nil`.
    public static func known(_ identifier: String) -> CategoryType? {
        let suffix = identifier.hasExactPrefix(identifierPrefix)
            ? String(decoding: identifier.utf8.dropFirst(identifierPrefix.utf8.count), as: UTF8.self)
            : suffixesByLowercasedShortIdentifier.exactly(identifier.lowercased())
        guard let suffix, valueGroupsBySuffix.exactly(suffix) != nil else { return nil }
        return CategoryType(verbatim: identifierPrefix + suffix)
    }

    private init(verbatim identifier: String) { self.identifier = identifier }

    /// The long form of an identifier: `sleepAnalysis` → `HKCategoryTypeIdentifierSleepAnalysis`;
    /// any other name gets the prefix and an uppercase first letter.
    public static func fullIdentifier(_ identifier: String) -> String {
        if identifier.hasPrefix(identifierPrefix) { return identifier }
        return known(identifier)?.identifier ?? TypeIdentifier.full(identifier, prefix: identifierPrefix)
    }

    /// HealthKit's Swift name: `HKCategoryTypeIdentifierSleepAnalysis` → `sleepAnalysis`.
    public var shortIdentifier: String { TypeIdentifier.short(identifier, prefix: Self.identifierPrefix) }

    /// Whether the type appears in Cadence's table.
    public var isKnown: Bool { valueGroup != nil }

    /// The type's values, in raw-value order (empty for an unknown type).
    public var values: [CategoryValue] {
        guard let valueGroup else { return [] }
        return valueGroup.values.map { CategoryValue(rawValue: $0.rawValue, name: valueGroup.prefix + $0.suffix) }
    }

    /// The raw value a name stands for: the export's name (`HKCategoryValueSleepAnalysisAsleepCore`,
    /// or an older alias such as `HKCategoryValueSleepAnalysisAsleep`), the short name
    /// (`asleepCore`, any letter case) or the number itself; `nil` when the type has no such value.
    public func value(named name: String) -> Int? {
        guard let valueGroup else { return nil }
        if let number = Int(name), valueGroup.values.contains(where: { $0.rawValue == number }) { return number }
        let suffix = name.hasPrefix(valueGroup.prefix) ? String(name.dropFirst(valueGroup.prefix.count)) : name
        let lowered = suffix.lowercased()
        if let value = valueGroup.values.first(where: { $0.suffix.lowercased() == lowered }) { return value.rawValue }
        return valueGroup.aliases.first { $0.suffix.lowercased() == lowered }?.rawValue
    }

    /// The export's name of a raw value (`3` → `HKCategoryValueSleepAnalysisAsleepCore`), or `nil`.
    public func valueName(_ rawValue: Int) -> String? {
        values.first { $0.rawValue == rawValue }?.name
    }

    /// The type's tracks (<doc:HowCadenceComputes#Category-durations>): sets of values whose samples may not overlap within one
    /// source. Sleep analysis has an in-bed track and a sleep track; every other type has one.
    public var tracks: [Set<Int>] {
        guard let valueGroup else { return [] }
        return valueGroup.tracks ?? [Set(valueGroup.values.map(\.rawValue))]
    }

    public var description: String { identifier }

    /// The table entry behind the type.
    private var valueGroup: ValueGroup? {
        identifier.hasExactPrefix(Self.identifierPrefix)
            ? Self.valueGroupsBySuffix.exactly(String(decoding: identifier.utf8.dropFirst(Self.identifierPrefix.utf8.count),
                                                      as: UTF8.self)) : nil
    }
}

/// One value of a category type: HealthKit's raw integer and the export's name for it.
public struct CategoryValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// HealthKit's raw value.
    public let rawValue: Int
    /// The export's name, such as `HKCategoryValueSleepAnalysisAsleepCore`.
    public let name: String

    /// HealthKit's Swift case name: `HKCategoryValueSleepAnalysisAsleepCore` → `asleepCore`.
    public var shortName: String {
        for prefix in CategoryType.valueGroupPrefixes where name.hasPrefix(prefix) {
            let suffix = name.dropFirst(prefix.count)
            guard let first = suffix.first else { break }
            return first.lowercased() + suffix.dropFirst()
        }
        return name
    }

    public var description: String { name }
}
