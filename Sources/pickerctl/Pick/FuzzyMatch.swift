/// fzf's fuzzy matching (its v1 algorithm and its scoring, issue 24 item 5): the query's characters in
/// order anywhere in the name, case-insensitively; the shortest such window scored as fzf scores it.
/// A match gains on consecutive characters and on characters at the start of a word (after a space,
/// a delimiter or punctuation, a lower-to-upper case change, a letter-to-digit change), and loses on
/// the gaps between them.
enum FuzzyMatch {
    struct Match: Equatable {
        var score: Int
        /// Offsets of the matched characters among the name's Unicode scalars.
        var positions: [Int]
    }

    /// A name prepared once: its scalars, folded to lower case, and each one's class.
    struct Prepared {
        fileprivate var folded: [UInt32]
        fileprivate var classes: [CharClass]

        init(_ text: String) {
            folded = []
            classes = []
            folded.reserveCapacity(text.unicodeScalars.count)
            for scalar in text.unicodeScalars {
                folded.append(FuzzyMatch.fold(scalar))
                classes.append(CharClass(scalar))
            }
        }
    }

    // fzf's constants (src/algo/algo.go).
    static let scoreMatch = 16
    static let scoreGapStart = -3
    static let scoreGapExtension = -1
    static let bonusBoundary = scoreMatch / 2
    static let bonusNonWord = scoreMatch / 2
    static let bonusCamel123 = bonusBoundary + scoreGapExtension
    static let bonusConsecutive = -(scoreGapStart + scoreGapExtension)
    static let bonusFirstCharMultiplier = 2
    static let bonusBoundaryWhite = bonusBoundary + 2
    static let bonusBoundaryDelimiter = bonusBoundary + 1

    /// The query folded as names are.
    static func query(_ text: String) -> [UInt32] { text.unicodeScalars.map(fold) }

    /// The match of `query` in `name`, or nil. An empty query matches everything with score 0.
    static func match(_ query: [UInt32], in name: Prepared) -> Match? {
        guard !query.isEmpty else { return Match(score: 0, positions: []) }
        let text = name.folded
        // Forward: the first place the whole query has appeared in order.
        var q = 0, start = -1, end = -1
        for (i, c) in text.enumerated() where c == query[q] {
            if start < 0 { start = i }
            q += 1
            if q == query.count { end = i + 1; break }
        }
        guard end > 0 else { return nil }
        // Backward from there: the shortest window that still holds the query.
        q = query.count - 1
        for i in stride(from: end - 1, through: start, by: -1) where text[i] == query[q] {
            q -= 1
            if q < 0 { start = i; break }
        }
        return score(query, in: name, from: start, to: end)
    }

    /// fzf's calculateScore over the window `start..<end`.
    private static func score(_ query: [UInt32], in name: Prepared, from start: Int, to end: Int) -> Match {
        var q = 0, score = 0, inGap = false, consecutive = 0, firstBonus = 0
        var previous = start > 0 ? name.classes[start - 1] : .white
        var positions: [Int] = []
        for i in start..<end {
            let cls = name.classes[i]
            if q < query.count, name.folded[i] == query[q] {
                score += scoreMatch
                var bonus = bonusFor(previous, cls)
                if consecutive == 0 {
                    firstBonus = bonus
                } else {
                    // A word-start bonus carries through the characters that follow it.
                    if bonus >= bonusBoundary && bonus > firstBonus { firstBonus = bonus }
                    bonus = max(bonus, firstBonus, bonusConsecutive)
                }
                score += q == 0 ? bonus * bonusFirstCharMultiplier : bonus
                positions.append(i)
                inGap = false
                consecutive += 1
                q += 1
            } else {
                score += inGap ? scoreGapExtension : scoreGapStart
                inGap = true
                consecutive = 0
                firstBonus = 0
            }
            previous = cls
        }
        return Match(score: score, positions: positions)
    }

    /// fzf's bonusFor: what a character of class `cls` after one of class `previous` earns when matched.
    static func bonusFor(_ previous: CharClass, _ cls: CharClass) -> Int {
        if cls.isWord {
            switch previous {
            case .white: return bonusBoundaryWhite
            case .delimiter: return bonusBoundaryDelimiter
            case .nonWord: return bonusBoundary
            default: break
            }
        }
        if previous == .lower && cls == .upper || previous != .number && cls == .number { return bonusCamel123 }
        switch cls {
        case .nonWord, .delimiter: return bonusNonWord
        case .white: return bonusBoundaryWhite
        default: return 0
        }
    }

    /// fzf's character classes.
    enum CharClass: Equatable {
        case white, nonWord, delimiter, lower, upper, letter, number

        init(_ s: Unicode.Scalar) {
            let p = s.properties
            if s == " " || s == "\t" || p.isWhitespace { self = .white }
            else if "/,:;|".unicodeScalars.contains(s) { self = .delimiter }
            else if p.isLowercase { self = .lower }
            else if p.isUppercase { self = .upper }
            else if p.numericType != nil { self = .number }
            else if p.isAlphabetic { self = .letter }
            else { self = .nonWord }
        }

        var isWord: Bool { self == .lower || self == .upper || self == .letter || self == .number }
    }

    /// A scalar in lower case when that is one scalar (ASCII at once), else itself.
    static func fold(_ s: Unicode.Scalar) -> UInt32 {
        if s.value < 0x80 { return s.value >= 65 && s.value <= 90 ? s.value + 32 : s.value }
        let lower = s.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first?.value ?? s.value : s.value
    }
}
