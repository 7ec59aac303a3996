/// The container families of camera RAW files pickerd reads, told from their first bytes.
///
/// TIFF-based RAWs all start with a TIFF header; CR2, ORF and RW2 mark theirs, while DNG, NEF,
/// ARW, PEF and other camera TIFFs are told apart from a plain TIFF (a scan, an export: not a
/// format pickerd reads) only by their IFDs (`RAWLayout.tiff`), so `sniff` gives `.tiff` for them.
enum RAWKind: String, Sendable, Equatable {
    /// DNG, NEF, ARW, PEF, SRW...: a TIFF header and IFDs naming a camera (decided from the IFDs).
    case tiff = "TIFF"
    case dng = "DNG"
    case cr2 = "CR2"
    case orf = "ORF"
    case rw2 = "RW2"
    case raf = "RAF"
    case cr3 = "CR3"

    /// The family a file starting with `head` belongs to, or nil when it is no camera RAW.
    static func sniff(_ head: ArraySlice<UInt8>) -> RAWKind? {
        let b = Array(head.prefix(16))
        guard b.count >= 12 else { return nil }
        if b.starts(with: Array("FUJIFILMCCD-RAW".utf8)) { return .raf }
        if b[4..<12].elementsEqual(Array("ftypcrx ".utf8)) { return .cr3 }
        let start = Array(b[0..<4])
        if start == [0x49, 0x49, 0x52, 0x4F] || start == [0x49, 0x49, 0x52, 0x53] || start == [0x4D, 0x4D, 0x4F, 0x52] {
            return .orf
        }
        if start == [0x49, 0x49, 0x55, 0x00] { return .rw2 }
        guard start == [0x49, 0x49, 0x2A, 0x00] || start == [0x4D, 0x4D, 0x00, 0x2A] else { return nil }
        return b[8] == 0x43 && b[9] == 0x52 ? .cr2 : .tiff  // "CR" at 8
    }
}
