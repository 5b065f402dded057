// swift-tools-version:6.0
//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PackageDescription

let package = Package(
    name: "Cadence",
    products: [
        .library(name: "Cadence", targets: ["Cadence"]),
        // HealthKit's query classes over the Cadence API, so HealthKit code runs with one import changed.
        .library(name: "CadenceHealthKit", targets: ["CadenceHealthKit"]),
        .executable(name: "cadence", targets: ["cadence"]),
        .executable(name: "cadence-bench", targets: ["CadenceBenchmark"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        // The system liblz4, through a module map and a shim header only (see Sources/CLZ4).
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]
        ),
        .target(
            name: "Cadence",
            dependencies: [
                "CLZ4",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .target(
            name: "CadenceHealthKit",
            dependencies: ["Cadence"]
        ),
        .executableTarget(
            name: "cadence",
            dependencies: [
                "Cadence",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "CadenceBenchmark",
            dependencies: ["Cadence"],
            path: "Benchmarks/CadenceBenchmark"
        ),
        // The child process the crash test kills (Tests/CadenceTests/CrashTests.swift).
        .executableTarget(
            name: "cadence-crash-child",
            dependencies: ["Cadence"],
            path: "Tests/CadenceCrashChild"
        ),
        // The libFuzzer harness (Fuzz/README.md); Fuzz/run.sh builds it with the fuzzer sanitizer.
        .executableTarget(
            name: "CadenceFuzz",
            dependencies: ["Cadence"],
            path: "Fuzz/CadenceFuzz"
        ),
        .testTarget(
            name: "CadenceTests",
            dependencies: ["Cadence", "cadence-crash-child"]
        ),
        .testTarget(
            name: "CadenceCLITests",
            dependencies: [
                "Cadence", "cadence",
                // Writes the export.zip that `cadence import` reads in the tests.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // HealthKit-style code (files importing only CadenceHealthKit) checked against the Cadence API.
        .testTarget(
            name: "CadenceHealthKitTests",
            dependencies: ["Cadence", "CadenceHealthKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
