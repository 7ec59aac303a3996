import Testing
@testable import PickerPortal

/// OpenFile's `a{sv}` options read into `OpenFileOptions`: defaults, every known key, wrong types.
@Suite struct OpenFileOptionsTests {
    static let images = FileFilter(name: "Images", patterns: [.mime("image/*")])
    static let chromiumJPEG = FileFilter(name: "JPEG", patterns: [.glob("*.jpg"), .glob("*.JPG")])

    @Test func absentOptionsAreTheSpecDefaults() throws {
        let o = try OpenFileOptions([:])
        #expect(o.modal && !o.multiple && !o.directory && o.filters.isEmpty && o.currentFilter == nil && o.choices.isEmpty)
        #expect(o.currentFolder == nil && o.acceptLabel == nil)
    }

    @Test func everyKnownOptionIsRead() throws {
        let choice = DBusValue.structure([.string("encoding"), .string("Encoding"),
                                          .array(element: "(ss)", [.structure([.string("utf8"), .string("UTF-8")])]), .string("utf8")])
        let o = try OpenFileOptions([
            "accept_label": .string("Upload"), "modal": .bool(false), "multiple": .bool(true), "directory": .bool(false),
            "filters": .array(element: "(sa(us))", [Self.images.value, Self.chromiumJPEG.value]),
            "current_filter": Self.chromiumJPEG.value,
            "choices": .array(element: "(ssa(ss)s)", [choice]),
            "current_folder": .bytes(Array("/home/me/Pictures/2024".utf8) + [0]),
            "handle_token": .string("t1"),
        ])
        #expect(o.acceptLabel == "Upload" && !o.modal && o.multiple)
        #expect(o.filters == [Self.images, Self.chromiumJPEG] && o.currentFilter == Self.chromiumJPEG)
        #expect(o.choices.map(\.id) == ["encoding"] && o.choices[0].answer == "utf8")
        #expect(o.currentFolder == "/home/me/Pictures/2024")
    }

    @Test func aKnownOptionOfTheWrongTypeIsAnErrorNamingIt() {
        #expect(throws: PortalOptionError(key: "multiple", expected: "b", found: "s")) {
            try OpenFileOptions(["multiple": .string("yes")])
        }
        #expect(throws: PortalOptionError(key: "filters", expected: "a(sa(us))", found: "as")) {
            try OpenFileOptions(["filters": .array(element: "s", [])])
        }
        #expect(throws: PortalOptionError(key: "current_folder", expected: "ay", found: "s")) {
            try OpenFileOptions(["current_folder": .string("/tmp")])
        }
    }

    @Test func aFilterKindANewerFrontendAddsIsKeptAndMatchesNothing() throws {
        let value = DBusValue.structure([.string("New"), .array(element: "(us)", [.structure([.uint32(7), .string("x")])])])
        let filter = try #require(FileFilter(value))
        #expect(filter.patterns == [.unknown(kind: 7, "x")])
        #expect(!filter.matches(fileName: "x") && filter.value == value)
    }

    @Test func aCheckBoxChoiceAnswersFalseUnlessItStartsTrue() {
        #expect(Choice(id: "c", label: "Resize", options: [], initial: "").answer == "false")
        #expect(Choice(id: "c", label: "Resize", options: [], initial: "true").answer == "true")
        #expect(Choice(id: "c", label: "Size", options: [("s", "Small"), ("l", "Large")], initial: "x").answer == "s")
    }
}
