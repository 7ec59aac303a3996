import Testing
@testable import pickerctl

/// Issue 24 item 5: the filter matches as fzf does (its v1 algorithm and its scores).
@Suite struct FuzzyMatchTests {
    private func match(_ query: String, _ name: String) -> FuzzyMatch.Match? {
        FuzzyMatch.match(FuzzyMatch.query(query), in: FuzzyMatch.Prepared(name))
    }

    private func score(_ query: String, _ name: String) -> Int { match(query, name)?.score ?? Int.min }

    @Test func theQuerysCharactersInOrderAnywhereMatchCaseInsensitively() {
        #expect(match("kyt", "Kyoto.jpg")?.positions == [0, 1, 3])
        #expect(match("KYOTO", "kyoto.jpg") != nil)
        #expect(match("kdk", "Kyoto.jpg") == nil, "k, d, k in order are not there")
        #expect(match("ok", "Kyoto.jpg") == nil, "order counts")
        #expect(match("", "anything")?.score == 0)
        #expect(match("é", "Café.jpg")?.positions == [3], "beyond ASCII too")
    }

    @Test func scoresAreFzfs() {
        // Three consecutive matches from the start: 3×16, the first char's boundary bonus (10) doubled,
        // and the boundary bonus carried through the next two.
        #expect(score("abc", "abc") == 48 + 20 + 10 + 10)
        // A gap costs 3 to start and 1 for each further character.
        #expect(score("ac", "abbc") == 32 + 20 + (-3 - 1) + 0)
        #expect(FuzzyMatch.bonusFor(.lower, .upper) == FuzzyMatch.bonusCamel123)
        #expect(FuzzyMatch.bonusFor(.nonWord, .lower) == FuzzyMatch.bonusBoundary)
        #expect(FuzzyMatch.bonusFor(.delimiter, .lower) == FuzzyMatch.bonusBoundaryDelimiter)
    }

    @Test func consecutiveAndWordStartMatchesRankFirst() {
        #expect(score("trip", "big_trip.jpg") > score("trip", "t_r_i_p.jpg"), "consecutive beats scattered")
        #expect(score("tr", "big_trip.jpg") > score("tr", "astronaut.jpg"), "a word's start beats its middle")
        #expect(score("ph", "myPhoto.jpg") > score("ph", "alphabet.jpg"), "a camel-case hump is a word start")
        #expect(score("bt", "big_trip.jpg") > score("bt", "bat.jpg"), "a word start after a gap beats a shorter gap")
    }

    @Test func theListPutsTheBestMatchFirstAndKeepsListOrderOnTies() {
        var list = PickList<String>(label: { $0 })
        list.replace(["astronaut.jpg", "a_trip.jpg", "tr1.jpg", "tr2.jpg", "zzz.jpg"])
        list.setFilter("tr")
        #expect((0..<list.count).compactMap(list.item(atRow:)) == ["tr1.jpg", "tr2.jpg", "a_trip.jpg", "astronaut.jpg"])
        #expect(list.current == "tr1.jpg", "the cursor on the best match")
        #expect(list.matchedPositions(atRow: 2) == [2, 3])
        list.setFilter("tri")
        #expect((0..<list.count).compactMap(list.item(atRow:)) == ["a_trip.jpg"])
        list.setFilter("")
        #expect(list.count == 5 && list.matchedPositions(atRow: 0).isEmpty)
    }

    @Test func matchedCharactersAreHighlightedAndEscapedNamesShownPlain() {
        let shown = PickRenderer.highlighted("a_trip.jpg  ", "a_trip.jpg", [2, 3])
        #expect(shown == "a_\u{1b}[4;32mtr\u{1b}[24;39mip.jpg  ")
        #expect(PickRenderer.highlighted("a\\nb  ", "a\nb", [0]) == "a\\nb  ", "an escaped name is not highlighted")
    }
}
