import PickerProtocol

/// Fuzz target "image": the Swift decode layer (`ImageDecoder`, `ImageRenderer`) over one file,
/// as the daemon runs it for `get-image` and thumbnails.
///
/// The input is the whole file; the fit box, upscaling and output format come from its length,
/// so every corpus file stays a plain image file. Inputs are bounded without bypassing the
/// code under test: a file whose header declares more than the daemon's 200 Mpx cap runs with
/// that cap and must be refused as `image_too_large` before any pixel is allocated; every other
/// file runs with a 4 Mpx cap (which the C decoders also apply to what they read themselves).
public enum ImageFuzzEntry {
    /// The daemon's default `--max-megapixels` (see `EngineConfiguration`), in pixels.
    public static let daemonMaxPixels = 200_000_000
    /// The cap for files declaring less: keeps one execution to a few MB.
    public static let fuzzMaxPixels = 4_000_000
    static let photoName = "fuzz.img"
    static let imageErrors: Set<ErrorCode> = [.corruptImage, .unsupportedImage, .imageTooLarge]

    /// Runs the header reader, the full decoder, `fittedUpright`, `decodeUpright` and `render`.
    public static func run(_ bytes: [UInt8]) -> FuzzFindings {
        var findings = FuzzFindings()
        // The input as an ICC profile too: Little CMS parses untrusted profile bytes from
        // every format, and here the fuzzer reaches them without building a container.
        checkProfile(bytes, findings: &findings)
        guard let format = FormatSniffer.sniff(bytes) else { return findings }
        checkAnimation(bytes, format: format, findings: &findings)
        let header = readHeader(bytes, format: format, findings: &findings)
        let declared = Int64(max(0, header.storedWidth)) * Int64(max(0, header.storedHeight))
        let cap = declared > Int64(daemonMaxPixels) ? daemonMaxPixels : fuzzMaxPixels
        let fit = FitTarget(maxWidth: 1 + bytes.count % 97, maxHeight: 1 + bytes.count / 97 % 89,
                            allowUpscale: bytes.count % 2 == 0)
        let outputs: [ImageFormat] = [.png, .jpeg, .webp]
        let output = OutputSpec(format: outputs[bytes.count % outputs.count], quality: 1 + bytes.count % 100)
        var outcomes: [(step: String, error: PickerError?)] = []
        checkEstimates(header, fileBytes: bytes.count, fit: fit, output: output.format, cap: cap, findings: &findings)

        outcomes.append(("decode", attempt { () throws(PickerError) in
            let image = try ImageDecoder.decode(bytes, header: header, photoName: photoName,
                                                storedTarget: nil, maxPixels: cap)
            check(image, within: cap, step: "decode", findings: &findings)
        }))
        outcomes.append(("fittedUpright", attempt { () throws(PickerError) in
            let image = try ImageRenderer.fittedUpright(data: bytes, header: header, photoName: photoName,
                                                        fit: fit, maxPixels: cap)
            check(image, within: cap, step: "fittedUpright", findings: &findings)
            if header.storedWidth > 0 && header.storedHeight > 0 {
                let promised = fit.fittedSize(for: PixelSize(width: header.displayWidth, height: header.displayHeight))
                findings.expect(image.size == promised, "fittedUpright: \(image.size), promised \(promised) for \(fit)")
            }
        }))
        outcomes.append(("decodeUpright", attempt { () throws(PickerError) in
            let image = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: photoName,
                                                        minimumDisplaySize: (fit.maxWidth, fit.maxHeight ?? fit.maxWidth),
                                                        maxPixels: cap, embeddedThumbnail: true)
            check(image, within: cap, step: "decodeUpright", findings: &findings)
        }))
        // A grid cell's first source: the embedded thumbnail from the file's first bytes alone.
        let prefix = Array(bytes.prefix(EmbeddedThumbnail.prefix(for: header.format)))
        if let thumb = EmbeddedThumbnail.upright(prefix, header: header,
                                                 covering: PixelSize(width: fit.maxWidth, height: fit.maxHeight ?? fit.maxWidth),
                                                 maxPixels: cap) {
            check(thumb, within: cap, step: "embeddedThumbnail", findings: &findings)
        }
        outcomes.append(("render", attempt { () throws(PickerError) in
            let rendered = try ImageRenderer.render(data: bytes, header: header, photoName: photoName,
                                                    fit: fit, output: output, maxPixels: cap)
            findings.expect(!rendered.bytes.isEmpty && rendered.width > 0 && rendered.height > 0,
                            "render: empty result \(rendered.width)x\(rendered.height), \(rendered.bytes.count) bytes")
            findings.expect(rendered.format == output.format, "render: asked for \(output.format), got \(rendered.format)")
        }))

        for (step, error) in outcomes {
            if let error {
                findings.expectRefusal(error, in: imageErrors, from: step)
                findings.expect(error.message.hasPrefix("\(photoName):"), "\(step): message does not name the photo: \(error.message)")
            }
            if declared > Int64(cap) {
                findings.expect(error?.code == .imageTooLarge,
                                "\(step): declared \(header.storedWidth)x\(header.storedHeight) over the \(cap)-pixel cap, but got \(error.map { "\($0.code)" } ?? "a picture")")
            }
        }
        return findings
    }

    /// The header reader's verdict; when it refuses, a header of unknown size (0x0), as the
    /// decoder and renderer must cope with one.
    static func readHeader(_ bytes: [UInt8], format: PhotoFormat, findings: inout FuzzFindings) -> ImageHeader {
        do throws(PickerError) {
            return try ImageHeaderReader.read(bytes: bytes, name: photoName)
        } catch {
            findings.expectRefusal(error, in: imageErrors, from: "header")
            return ImageHeader(format: format, storedWidth: 0, storedHeight: 0, orientation: .up)
        }
    }

    /// The work estimates of what the header declares (as the daemon makes them before any decode)
    /// never trap and are never negative; a listed header is within the declared-size ceiling.
    static func checkEstimates(_ header: ImageHeader, fileBytes: Int, fit: FitTarget, output: ImageFormat,
                               cap: Int, findings: inout FuzzFindings) {
        findings.expect(header.storedWidth == 0 || PixelCount.isListable(width: header.storedWidth, height: header.storedHeight),
                        "header: accepted \(header.storedWidth)x\(header.storedHeight), over the declared-size ceiling")
        let estimates = [
            WorkEstimate.render(header: header, fileBytes: fileBytes, fit: fit, output: output, maxPixels: cap),
            WorkEstimate.preview(header: header, fileBytes: fileBytes, width: fit.maxWidth, height: fit.maxHeight ?? 1,
                                 output: output, maxPixels: cap),
            WorkEstimate.thumbnailCell(header: header, fileBytes: fileBytes, box: 256, maxPixels: cap),
        ]
        findings.expect(estimates.allSatisfy { $0 >= 0 }, "estimate: negative \(estimates)")
    }

    /// Converting a small RGB and RGBA picture with `bytes` as the profile keeps its size,
    /// channels and byte count, whatever Little CMS makes of the bytes.
    static func checkProfile(_ bytes: [UInt8], findings: inout FuzzFindings) {
        for channels in [3, 4] {
            guard var image = PixelImage(width: 5, height: 3, channels: channels,
                                         pixels: (0..<(15 * channels)).map { UInt8(truncatingIfNeeded: $0 * 17) })
            else { continue }
            _ = ColourTransform.convertToSRGB(&image, profile: bytes)
            check(image, within: 15, step: "colour", findings: &findings)
            findings.expect(image.size == PixelSize(width: 5, height: 3) && image.channels == channels,
                            "colour: the picture changed shape: \(image.size)x\(image.channels)")
        }
    }

    /// A decoded picture has a size, 3 or 4 channels, exactly its pixels, and fits the cap.
    static func check(_ image: PixelImage, within cap: Int, step: String, findings: inout FuzzFindings) {
        findings.expect(image.width > 0 && image.height > 0, "\(step): empty picture \(image.size)")
        findings.expect(image.channels == 3 || image.channels == 4, "\(step): \(image.channels) channels")
        findings.expect(image.pixels.count == image.width * image.height * image.channels,
                        "\(step): \(image.pixels.count) bytes for \(image.size)x\(image.channels)")
        findings.expect(image.width * image.height <= cap, "\(step): \(image.size) over the \(cap)-pixel cap")
    }

    private static func attempt(_ body: () throws(PickerError) -> Void) -> PickerError? {
        do throws(PickerError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    /// `photoInfo`'s animation walk (GIF blocks, WebP chunks, APNG chunks) on the same bytes: only an
    /// animation of 2 frames and more, at most `maxFrames`, a non-negative length.
    static func checkAnimation(_ bytes: [UInt8], format: PhotoFormat, findings: inout FuzzFindings) {
        var source = InMemoryBytes(data: bytes)
        guard let animation = AnimationReader.read(&source, format: format) else { return }
        findings.expect((2...AnimationReader.maxFrames).contains(animation.frames), "animation of \(animation.frames) frames")
        findings.expect(animation.milliseconds >= 0, "animation of \(animation.milliseconds) ms")
    }
}
