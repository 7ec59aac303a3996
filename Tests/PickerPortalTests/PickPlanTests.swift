import PickerProtocol
import Testing
@testable import PickerPortal

/// An OpenFile request turned into a session plan, and pick's outcome into the reply.
@Suite struct PickPlanTests {
    static let png = FileFilter(name: "PNG images", patterns: [.glob("*.png")])

    func plan(_ options: OpenFileOptions, title: String = "Upload photo", root: String? = "/home/me/Pictures") -> PickPlan? {
        if case .pick(let p) = PickPlan.decide(options, title: title, token: "t1", libraryRoot: root) { return p }
        return nil
    }

    @Test func singleOrManyPicksAndTheDialogTitle() throws {
        var o = OpenFileOptions()
        let single = try #require(plan(o))
        #expect(single.maxSelection == 1 && single.title == "Upload photo" && single.session == "portal-app")
        o.multiple = true
        #expect(try #require(plan(o)).maxSelection == PickPlan.mostPicks)
        #expect(try #require(plan(o, title: "")).title == "Choose a photo")
    }

    @Test func aNarrowingFilterIsNamedInTheTitleAndAppliedToThePicks() throws {
        var o = OpenFileOptions()
        o.filters = [Self.png]
        let p = try #require(plan(o))
        #expect(p.title == "Upload photo (PNG images)" && p.filters == [Self.png] && p.replyFilter == Self.png)
        let reply = ChooserResponse.accepted(["/home/me/Pictures/a.jpg", "/home/me/Pictures/b.png"], plan: p)
        #expect(reply.code == 0)
        #expect(reply.results.vardictEntries?["uris"] == .array(element: "s", [.string("file:///home/me/Pictures/b.png")]))
        #expect(reply.results.vardictEntries?["current_filter"] == Self.png.value)
        #expect(ChooserResponse.accepted(["/home/me/Pictures/a.jpg"], plan: p).code == ChooserResponse.cancelled)
    }

    @Test func theCurrentFilterWinsOverTheList() throws {
        var o = OpenFileOptions()
        o.filters = [FileFilter(name: "Images", patterns: [.mime("image/*")]), Self.png]
        o.currentFilter = Self.png
        #expect(try #require(plan(o)).filters == [Self.png])
        o.currentFilter = nil
        let all = try #require(plan(o))
        #expect(all.filters.isEmpty && all.replyFilter == nil && all.title == "Upload photo")
    }

    @Test func foldersAndFiltersThatPassNoPhotoAreNotAPhotoPick() {
        var o = OpenFileOptions()
        o.directory = true
        #expect(plan(o) == nil)
        o = OpenFileOptions()
        o.filters = [FileFilter(name: "Text", patterns: [.mime("text/plain")])]
        #expect(plan(o) == nil)
    }

    @Test func theCurrentFolderInsideTheLibraryOpensItsAlbum() {
        #expect(PickPlan.album(folder: "/home/me/Pictures/2024/Kyoto/", root: "/home/me/Pictures") == "2024/Kyoto")
        #expect(PickPlan.album(folder: "/home/me/Pictures", root: "/home/me/Pictures") == nil)
        #expect(PickPlan.album(folder: "/home/me/Picturesque", root: "/home/me/Pictures") == nil)
        #expect(PickPlan.album(folder: "/home/me/Pictures/../etc", root: "/home/me/Pictures") == nil)
        #expect(PickPlan.safeToken("1_23/t 1;é") == "1_23t1" && PickPlan.safeToken("") == "request")
    }

    @Test func theSessionIsNamedAfterTheAppSoItsLastAlbumIsRemembered() {
        #expect(PickPlan.sessionName(appID: "org.gnome.Maps", token: "t1", busy: []) == "portal-org.gnome.Maps")
        #expect(PickPlan.sessionName(appID: "org.gnome.Maps", token: "t2", busy: ["portal-org.gnome.Maps"]) == "portal-org.gnome.Maps-t2")
        #expect(PickPlan.sessionName(appID: "", token: "t1", busy: []) == "portal-app")
    }

    @Test func acceptedPicksBecomeFileURIsAndNoneLeftIsACancel() throws {
        let p = try #require(plan(OpenFileOptions()))
        #expect(ChooserResponse.accepted(["/a b.jpg"], plan: p).results.vardictEntries?["uris"]
                == .array(element: "s", [.string("file:///a%20b.jpg")]))
        #expect(ChooserResponse.accepted([], plan: p).code == 1)
    }

    @Test func choicesAreAnsweredWithTheirInitialSelection() throws {
        var o = OpenFileOptions()
        o.choices = [Choice(id: "resize", label: "Resize", options: [], initial: "")]
        let reply = ChooserResponse.accepted(["/a.jpg"], plan: try #require(plan(o)))
        #expect(reply.results.vardictEntries?["choices"] == .array(element: "(ss)", [.structure([.string("resize"), .string("false")])]))
    }

    /// The session's values when it was accepted win; a choice pickerd did not answer for keeps its initial one.
    @Test func choicesAreAnsweredWithTheSessionsValuesWhenThereAreSome() throws {
        var o = OpenFileOptions()
        o.choices = [Choice(id: "resize", label: "Resize", options: [], initial: ""),
                     Choice(id: "format", label: "Format", options: [("jpeg", "JPEG"), ("png", "PNG")], initial: "jpeg")]
        let reply = ChooserResponse.accepted(["/a.jpg"], plan: try #require(plan(o)), values: ["format": "png"])
        #expect(reply.results.vardictEntries?["choices"] == .array(element: "(ss)", [.structure([.string("resize"), .string("false")]),
                                                                                   .structure([.string("format"), .string("png")])]))
    }

    /// What pickerd-portal gives the session: the choice with its initial answer as the value.
    @Test func aChoiceBecomesTheSessionsWithItsAnswerAsTheValue() {
        let box = Choice(id: "resize", label: "Resize", options: [], initial: "")
        #expect(box.sessionChoice == SessionChoice(id: "resize", label: "Resize", value: "false"))
        let list = Choice(id: "format", label: "Format", options: [("jpeg", "JPEG")], initial: "gif")
        #expect(list.sessionChoice == SessionChoice(id: "format", label: "Format", options: [.init(id: "jpeg", label: "JPEG")], value: "jpeg"))
    }

    @Test func fileURIsEscapeWhatGLibEscapes() {
        #expect(FileURI.from(path: "/p/IMG 1#%?.jpg") == "file:///p/IMG%201%23%25%3F.jpg")
        #expect(FileURI.from(path: "/p/京都/a(1)+b.jpg") == "file:///p/%E4%BA%AC%E9%83%BD/a(1)+b.jpg")
    }
}
