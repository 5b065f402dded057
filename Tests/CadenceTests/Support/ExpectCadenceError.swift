//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing
@testable import Cadence

/// Runs `body`, expecting it to throw a ``CadenceError`` with `code`, and returns the error (an
/// issue is recorded when nothing or something else is thrown).
@discardableResult
func expectCadenceError(_ code: CadenceError.Code, _ body: () throws -> Void) -> CadenceError? {
    do {
        try body()
        Issue.record("no error thrown")
        return nil
    } catch let error as CadenceError {
        #expect(error.code == code, "\(error)")
        return error
    } catch {
        Issue.record("not a CadenceError: \(error)")
        return nil
    }
}
