import PickerProtocol

/// A size in pixels.
struct PixelSize: Equatable {
    var width: Int
    var height: Int
}

/// The largest picture the terminal says it draws (sixel: its XTSMGRAPHICS answer). pick asks pickerd
/// for pictures no larger, and says so in the pane when one still is, instead of leaving it blank.
struct PictureLimit: Equatable {
    var largest: PixelSize

    /// `size` scaled down to the limit on each side (pickerd fits the photo inside, keeping its shape).
    func fit(_ size: (width: Int, height: Int)) -> (width: Int, height: Int) {
        (min(size.width, largest.width), min(size.height, largest.height))
    }

    /// Why `image` cannot be shown, or nil when the terminal draws it.
    func refusal(_ image: EncodedImage) -> String? {
        guard image.width > largest.width || image.height > largest.height else { return nil }
        return "picture \(image.width)x\(image.height) is larger than this terminal draws (\(largest.width)x\(largest.height))"
    }
}
