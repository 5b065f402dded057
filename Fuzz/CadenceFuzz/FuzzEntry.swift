//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// The entry points of the fuzzing harness (see Fuzz/README.md).
//
// Built by Fuzz/run.sh with `-sanitize=fuzzer,address -D CADENCE_FUZZING`, the module exports
// `LLVMFuzzerTestOneInput` and libFuzzer supplies `main`; the target to fuzz is chosen with the
// environment variable `CADENCE_FUZZ_TARGET` (chunk, wal, csv, xml, gpx, arrow, json). A plain `swift build`
// compiles the same code as an ordinary tool that writes the seed corpus and replays inputs
// without sanitizers (`cadence-fuzz seed DIR`, `cadence-fuzz replay TARGET FILE...`).

import Cadence

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The five fuzz targets.
enum FuzzTarget: String, CaseIterable {
    case chunk, wal, csv, xml, gpx, arrow, json

    /// Runs one input through the target. Inputs that are rejected with a ``CadenceError`` are
    /// fine; anything else the harness considers a bug traps, so libFuzzer records it.
    func run(_ bytes: [UInt8]) {
        switch self {
        case .chunk: ChunkFuzzer.run(bytes)
        case .wal: LogFuzzer.run(bytes)
        case .csv: CSVFuzzer.run(bytes)
        case .xml: XMLFuzzer.run(bytes)
        case .gpx: GPXFuzzer.run(bytes)
        case .arrow: ArrowFuzzer.run(bytes)
        case .json: JSONFuzzer.run(bytes)
        }
    }

    /// The target named by `CADENCE_FUZZ_TARGET`.
    static let selected: FuzzTarget = {
        guard let name = getenv("CADENCE_FUZZ_TARGET").map({ String(cString: $0) }),
              let target = FuzzTarget(rawValue: name)
        else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            printError("set CADENCE_FUZZ_TARGET to one of: \(names)\n")
            exit(2)
        }
        return target
    }()
}

/// Writes a line to standard error.
func printError(_ message: String) {
    var line = message.hasSuffix("\n") ? message : message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// Fails the fuzz run: the input made the library misbehave without trapping by itself.
func fuzzFailure(_ message: String) -> Never {
    printError("cadence-fuzz: \(message)")
    abort()
}

/// Calls `body` with consecutive pieces of `bytes`, of the sizes given (cycling; at least 1).
func forEachPiece(of bytes: [UInt8], sizes: [Int], _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
    try bytes.withUnsafeBytes { buffer in
        var offset = 0
        var piece = 0
        while offset < buffer.count {
            let end = min(buffer.count, offset + max(1, sizes[piece % sizes.count]))
            try body(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
            offset = end
            piece += 1
        }
    }
}

/// Runs `body`, accepting a ``CadenceError`` and failing on any other error.
@discardableResult
func expectingCadenceErrors<T>(_ what: String, _ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch let error as CadenceError {
        #if !CADENCE_FUZZING
        if getenv("CADENCE_FUZZ_VERBOSE") != nil { print("  \(what): \(error)") }
        #endif
        _ = error
        return nil
    } catch {
        fuzzFailure("\(what) threw a non-Cadence error: \(error)")
    }
}

#if CADENCE_FUZZING
/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzTarget.selected.run(Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}

/// Hands `main` to libFuzzer.
///
/// SwiftPM links an executable's entry point under another name (`CadenceFuzz_main`, aliased
/// to `main`), so libFuzzer's own `main` is never linked in; this one runs libFuzzer's driver,
/// `LLVMFuzzerRunDriver`, found at run time.
@main
struct CadenceFuzzDriver {
    typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    typealias RunDriver = @convention(c) (
        UnsafeMutablePointer<CInt>, UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        TestOneInput
    ) -> CInt

    static func main() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "LLVMFuzzerRunDriver") else {
            printError("LLVMFuzzerRunDriver not found: build with -sanitize=fuzzer")
            exit(2)
        }
        let driver = unsafeBitCast(symbol, to: RunDriver.self)
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        let testOneInput: TestOneInput = { data, count in
            FuzzTarget.selected.run(Array(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : count)))
            return 0
        }
        exit(driver(&argc, &argv, testOneInput))
    }
}
#else
/// The tool a plain build makes: seeds the corpus and replays inputs without sanitizers.
@main
struct CadenceFuzzTool {
    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "seed" where arguments.count == 2:
            try Seeds.write(to: arguments[1])
        case "replay" where arguments.count >= 3:
            guard let target = FuzzTarget(rawValue: arguments[1]) else { usage() }
            for path in arguments.dropFirst(2) {
                target.run(try Seeds.readFile(path))
                print("ok: \(path)")
            }
        default:
            usage()
        }
    }

    static func usage() -> Never {
        printError("usage: cadence-fuzz seed DIR | cadence-fuzz replay chunk|wal|csv|xml|gpx FILE...\n")
        exit(2)
    }
}
#endif
