import PickerProtocol

/// The preview's 1:1 view (`z`, issue 24 item 4): the point it is centred on, and where the daemon
/// last placed the window (`ZoomWindow`), which says how far a pan goes and where the photo ends.
struct PreviewZoomState: Equatable {
    var centre = PreviewZoom.centre
    /// From the last zoomed picture of this photo; nil until it arrives.
    var window: ZoomWindow? = nil

    /// Moves the view by `dx`, `dy` halves of the window, in whole pixels of the photo once a picture
    /// has said where the window is (so a pan and its opposite come back to the same pixels), else by a
    /// tenth of the photo. Whether it moved.
    mutating func pan(dx: Int, dy: Int) -> Bool {
        let next: PreviewZoom
        if let window {
            let moved = window.moved(dx: dx, dy: dy)
            self.window = moved
            next = moved.centre
        } else {
            next = PreviewZoom(fractionX: centre.fractionX + 0.1 * Double(dx), fractionY: centre.fractionY + 0.1 * Double(dy))
        }
        defer { centre = next }
        return next != centre
    }

    /// The window's placement for this photo arrived: later pans start from where it really is.
    mutating func landed(_ window: ZoomWindow) {
        self.window = window
        centre = window.centre
    }
}
