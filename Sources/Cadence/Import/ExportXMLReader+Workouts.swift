//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Workouts for `ExportXMLReader`: the tags of a `<Workout>` and its children are rare (one per
// workout, not per sample), so they keep every attribute and go to an `ExportWorkoutBuilder`
// instead of through the record slots.

extension ExportXMLReader {
    /// The most attributes read from one tag of a workout; a tag with more is malformed.
    static let maxWorkoutTagAttributes = 256

    /// Whether a tag is to go to ``readWorkoutTag(_:name:isEndTag:isSelfClosing:problem:line:handler:)``:
    /// a `<Workout>`, or any tag while one is open.
    @inline(__always)
    func readsWorkoutTag(_ element: ElementName) -> Bool {
        element == .workout || workoutBuilder.isOpen
    }

    /// Hands a tag of a workout's subtree, already checked and handled as an element, to the
    /// workout builder, and delivers the workout its end completes.
    ///
    /// - Parameters:
    ///   - tag: The tag's bytes from `<` to `>`, or `nil` when it was too long to keep.
    ///   - name: The element's name.
    ///   - problem: Why the tag is malformed, if it is.
    mutating func readWorkoutTag<Sink: ExportRecordSink>(
        _ tag: UnsafeBufferPointer<UInt8>?, name: UnsafeBufferPointer<UInt8>, isEndTag: Bool, isSelfClosing: Bool,
        problem: String?, line tagLine: Int, handler: inout Sink
    ) throws {
        let outcome: ExportWorkoutBuilder.Outcome
        if isEndTag {
            // The element has been closed already: it sat one level below the open ones.
            outcome = workoutBuilder.end(depth: openElements.count + 1)
        } else {
            var attributes: ExportWorkoutBuilder.Attributes?
            var tagProblem = problem
            if problem == nil, let tag { (attributes, tagProblem) = tagAttributes(tag) }
            outcome = workoutBuilder.start(
                name: String(decoding: name, as: UTF8.self), attributes: attributes, problem: tagProblem,
                depth: isSelfClosing ? openElements.count + 1 : openElements.count, isSelfClosing: isSelfClosing,
                line: tagLine)
        }
        for issue in workoutBuilder.takeIssues() { addIssue(line: issue.line, issue.reason) }
        switch outcome {
        case .none:
            break
        case .workout(let workout, let line):
            summary.deliveredWorkoutCount += 1
            try handler.receive(workout, line: line)
        case .malformed(let line, let reason):
            summary.malformedWorkoutCount += 1
            addIssue(line: line, "a <Workout> was skipped: \(reason)")
        }
    }

    /// Every attribute of a tag that ``scanTag(_:start:limit:handler:)`` found well formed, decoded;
    /// or why one cannot be decoded (a workout's tags, an activity summary's).
    mutating func tagAttributes(
        _ tag: UnsafeBufferPointer<UInt8>
    ) -> (ExportWorkoutBuilder.Attributes?, String?) {
        var attributes = ExportWorkoutBuilder.Attributes()
        var nameEnd = 1
        while nameEnd < tag.count && Self.isNameByte(tag[nameEnd]) { nameEnd += 1 }
        var problem: String?
        let syntax = XMLTagAttributes.forEach(in: UnsafeBufferPointer(rebasing: tag[nameEnd..<max(nameEnd, tag.count - 1)])) {
            name, value in
            guard problem == nil else { return }
            guard attributes.pairs.count < Self.maxWorkoutTagAttributes else {
                problem = "it has more than \(Self.maxWorkoutTagAttributes) attributes"
                return
            }
            switch valueDecoder.decode(value) {
            case .decoded(let text, let repaired):
                if repaired { summary.repairedValueCount += 1 }
                attributes.pairs.append((String(decoding: name, as: UTF8.self), text))
            case .rejected(let reason):
                problem = "attribute \(Self.text(name)): \(reason)"
            }
        }
        if let problem = problem ?? syntax { return (nil, problem) }
        return (attributes, nil)
    }
}
