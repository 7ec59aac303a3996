/// One picked photo, in pick order.
public struct SelectedPhoto: Sendable, Equatable {
    /// Folder album the photo lives in.
    public var album: String
    public var name: String
    /// Displayed size, after orientation.
    public var width: Int
    public var height: Int
    /// Path relative to the library root.
    public var path: String
    /// Absolute path, for a host app to import the file.
    public var absolutePath: String
    public init(album: String, name: String, width: Int, height: Int, path: String, absolutePath: String) {
        self.album = album
        self.name = name
        self.width = width
        self.height = height
        self.path = path
        self.absolutePath = absolutePath
    }
}

/// A session's pick list.
public struct SelectionList: Sendable, Equatable {
    public var maxSelection: Int
    public var photos: [SelectedPhoto]
    public init(maxSelection: Int, photos: [SelectedPhoto]) {
        self.maxSelection = maxSelection
        self.photos = photos
    }
}

/// Parameters of `thumbnails`.
public struct ThumbnailRequest: Sendable, Equatable {
    public var session: String
    /// Cell side in px (16…1024); nil = 100. Wire: 0.
    public var cellSize: Int?
    /// 1-based page; nil = 1. Wire: 0.
    public var page: Int?
    /// Only the geometry, no picture.
    public var geometryOnly: Bool
    /// The page's output format (flags bit 2 sends it); PNG when absent, so older frames stay as they were.
    public var format: ImageFormat
    /// The terminal cells to draw in (flags bit 1); required for `symbols`.
    public var cells: TerminalCells?
    /// The flags bit that says an output format byte follows the flags.
    public static let formatFlagBit: UInt8 = 1 << 2
    public init(session: String, cellSize: Int? = nil, page: Int? = nil, geometryOnly: Bool = false,
                format: ImageFormat = .png, cells: TerminalCells? = nil) {
        self.session = session
        self.cellSize = cellSize
        self.page = page
        self.geometryOnly = geometryOnly
        self.format = format
        self.cells = cells
    }
}

/// Where one photo sits in the grid image.
public struct GridCell: Sendable, Equatable {
    /// 1-based index of the photo in the album.
    public var index: Int
    public var name: String
    public var x: Int
    public var y: Int
    public var size: Int
    public var selected: Bool
    public var current: Bool
    /// The photo is known not to decode: the cell shows the broken tile (flags bit 2).
    public var broken: Bool
    public init(index: Int, name: String, x: Int, y: Int, size: Int, selected: Bool, current: Bool,
                broken: Bool = false) {
        self.index = index
        self.name = name
        self.x = x
        self.y = y
        self.size = size
        self.selected = selected
        self.current = current
        self.broken = broken
    }
}

/// The grid's layout: enough for a client to map a click to a photo.
public struct GridGeometry: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var cellSize: Int
    public var spacing: Int
    public var padding: Int
    public var columns: Int
    /// Rows on this page.
    public var rows: Int
    public var page: Int
    public var pages: Int
    public var cells: [GridCell]
    public init(width: Int, height: Int, cellSize: Int, spacing: Int, padding: Int, columns: Int, rows: Int,
                page: Int, pages: Int, cells: [GridCell]) {
        self.width = width
        self.height = height
        self.cellSize = cellSize
        self.spacing = spacing
        self.padding = padding
        self.columns = columns
        self.rows = rows
        self.page = page
        self.pages = pages
        self.cells = cells
    }
}

/// A grid page: its geometry and, unless only the geometry was asked for, its picture (PNG or the
/// requested format; the geometry stays in the picture's pixels whatever the format).
public struct ThumbnailSheet: Sendable, Equatable {
    public var geometry: GridGeometry
    public var image: EncodedImage?
    public init(geometry: GridGeometry, image: EncodedImage?) {
        self.geometry = geometry
        self.image = image
    }
}

/// Parameters of `preview`.
public struct PreviewRequest: Sendable, Equatable {
    public var session: String
    public var width: Int
    public var height: Int
    public var format: ImageFormat
    /// 1...100; nil = the format's default. Wire: 0.
    public var quality: Int?
    /// The terminal cells to draw in (optional flags byte, bit 1); required for `symbols`.
    public var cells: TerminalCells?
    /// 1:1 around this point instead of fitted (extension tag 2); the reply says where (`EncodedImage.zoom`).
    public var zoom: PreviewZoom?
    public init(session: String, width: Int = 1920, height: Int = 1080, format: ImageFormat = .png, quality: Int? = nil,
                cells: TerminalCells? = nil, zoom: PreviewZoom? = nil) {
        self.session = session
        self.width = width
        self.height = height
        self.format = format
        self.quality = quality
        self.cells = cells
        self.zoom = zoom
    }
}
