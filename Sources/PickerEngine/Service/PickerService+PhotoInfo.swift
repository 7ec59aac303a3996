import PickerProtocol

extension PickerService {
    /// `photoInfo`: a photo's details from the index and its header (`PhotoDetailsReader`); the
    /// current photo, or one picked by name or index in the session's order. No pixels are decoded.
    /// - Parameter asked: the request's extension area; the reply's entries answer only what it asks.
    func photoDetails(_ name: String, _ selector: Selector?, asked: ExtensionArea = ExtensionArea()) throws(PickerError) -> PhotoDetails {
        let session = try sessions.get(name)
        let photo: Photo
        if let selector { photo = try orderedAlbum(of: session).photo(selector) } else { photo = try currentPhoto(of: session) }
        var details = PhotoDetails(path: photo.relativePath, name: photo.fileName, format: photo.header.format,
                                   width: photo.header.displayWidth, height: photo.header.displayHeight,
                                   bytes: photo.byteSize, date: photo.dateSeconds,
                                   dateSource: photo.dateIsFromExif ? .exif : .modified)
        let open = try library.openPhoto(photo)
        let (camera, profile) = try PhotoDetailsReader.read(open)
        details.cameraMake = camera.make
        details.cameraModel = camera.model
        details.lens = camera.lens
        details.exposureTime = camera.exposureTime
        details.fNumber = camera.fNumber
        details.focalLength = camera.focalLength
        details.iso = camera.iso
        details.hasGPS = camera.hasGPS
        details.colourProfile = profile
        if asked.contains(PhotoDetails.Extension.rawCompanion) {
            details.rawCompanion = library.snapshot.rawCompanion(of: photo)?.relativePath ?? ""
        }
        if asked.contains(PhotoDetails.Extension.animation) {
            var source = HeaderBytes(fd: open.fd, size: Int(open.status.size))
            details.answersAnimation = true
            details.animation = AnimationReader.read(&source, format: photo.header.format)
                .map { PhotoDetails.Animation(frames: $0.frames, milliseconds: $0.milliseconds) }
        }
        return details
    }
}
