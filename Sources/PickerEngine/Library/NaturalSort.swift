/// Natural ordering of names as a person expects it: "IMG_2" before "IMG_10".
///
/// Letters compare case-insensitively first; runs of ASCII digits compare by numeric value
/// (leading zeros ignored, any length); names that are still equal are ordered by their raw
/// UTF-8 bytes, so the order is total and stable ("IMG_01" before "IMG_1", "A" before "a").
public enum NaturalSort {
    /// A name prepared once for many comparisons (use it when sorting).
    public struct Key: Sendable, Comparable {
        let folded: [UInt32]
        let raw: [UInt8]

        public init(_ name: String) {
            folded = name.lowercased().unicodeScalars.map(\.value)
            raw = Array(name.utf8)
        }

        public static func < (a: Key, b: Key) -> Bool { NaturalSort.compare(a, b) < 0 }
        public static func == (a: Key, b: Key) -> Bool { a.raw == b.raw }
    }

    /// Compares two names: a negative result if `a` comes first, 0 if they are identical, else positive.
    public static func compare(_ a: String, _ b: String) -> Int {
        compare(Key(a), Key(b))
    }

    /// True when `a` comes strictly before `b`.
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }

    /// `items` sorted by the natural order of `name(item)`, each name folded only once.
    public static func sorted<T>(_ items: [T], by name: (T) -> String) -> [T] {
        let keyed = items.map { (Key(name($0)), $0) }
        return keyed.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Compares two prepared keys; see `compare(_:_:)` for the result.
    public static func compare(_ ka: Key, _ kb: Key) -> Int {
        let a = ka.folded, b = kb.folded
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if isDigit(a[i]), isDigit(b[j]) {
                while i < a.count, a[i] == 0x30 { i += 1 }
                while j < b.count, b[j] == 0x30 { j += 1 }
                var ei = i, ej = j
                while ei < a.count, isDigit(a[ei]) { ei += 1 }
                while ej < b.count, isDigit(b[ej]) { ej += 1 }
                if ei - i != ej - j { return ei - i < ej - j ? -1 : 1 }
                while i < ei {
                    if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
                    i += 1
                    j += 1
                }
            } else {
                if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        let restA = a.count - i, restB = b.count - j
        if restA != restB { return restA < restB ? -1 : 1 }
        return rawCompare(ka.raw, kb.raw)
    }

    private static func isDigit(_ c: UInt32) -> Bool { c >= 0x30 && c <= 0x39 }

    private static func rawCompare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}
