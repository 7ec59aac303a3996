import PickerProtocol

/// What a fuzz entry found wrong with one input: each broken promise as a sentence.
///
/// The libFuzzer targets in `fuzz/` trap on a non-empty result (so libFuzzer keeps the input);
/// the replay tests expect it empty for every file of `fuzz/regressions/<target>/`. A crash
/// inside the code under test is a finding of its own in both.
public struct FuzzFindings: Sendable, Equatable, CustomStringConvertible {
    public private(set) var problems: [String] = []

    public init() {}

    /// True when the input broke no promise.
    public var isEmpty: Bool { problems.isEmpty }

    /// Records `problem` when `condition` is false.
    public mutating func expect(_ condition: Bool, _ problem: @autoclosure () -> String) {
        if !condition { problems.append(problem()) }
    }

    /// Records an error that is not one of the `allowed` codes or carries no message.
    public mutating func expectRefusal(_ error: PickerError, in allowed: Set<ErrorCode>, from step: String) {
        expect(allowed.contains(error.code), "\(step): unexpected error code \(error.code): \(error.message)")
        expect(!error.message.isEmpty, "\(step): error \(error.code) without a message")
    }

    public var description: String { problems.joined(separator: "; ") }
}
