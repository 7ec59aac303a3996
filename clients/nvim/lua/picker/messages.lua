-- The pickerd message table (docs/PROTOCOL.md, protocol version 1): every request, reply
-- and event declared once as a list of { field, kind }, with the error codes, formats and
-- session changes. Data only; picker.wire encodes and decodes by walking it (the field
-- kinds are described there) and re-exports everything here.
local M = {}

-- Stable error codes (PROTOCOL.md "Error codes"). A code not listed keeps its number and
-- reads as `internal`, as the protocol asks.
M.ERRORS = {
  [1] = 'malformed_frame', [2] = 'unsupported_version', [3] = 'frame_too_large',
  [4] = 'unknown_message_type', [5] = 'handshake_required', [6] = 'invalid_argument',
  [7] = 'too_busy', [8] = 'cancelled', [9] = 'permission_denied', [10] = 'no_such_session',
  [11] = 'no_such_album', [12] = 'no_such_photo', [13] = 'nothing_selected',
  [14] = 'session_exists', [15] = 'out_of_range', [16] = 'selection_full', [17] = 'invalid_name',
  [18] = 'no_such_choice',
  [20] = 'corrupt_image', [21] = 'unsupported_image', [22] = 'image_too_large', [23] = 'io_error',
  [99] = 'internal',
}
M.ERROR_CODES = {}
for code, name in pairs(M.ERRORS) do M.ERROR_CODES[name] = code end

function M.error_name(code) return M.ERRORS[code] or 'internal' end

M.FORMATS = { [1] = 'jpeg', [2] = 'png', [3] = 'webp', [6] = 'sixel', [7] = 'symbols' }
-- Photo (input) formats: the same numbering (PROTOCOL.md, "Image formats"); HEIC, AVIF, GIF, JXL, RAW are decode-only.
M.PHOTO_FORMATS = { [1] = 'jpeg', [2] = 'png', [3] = 'webp', [4] = 'heic', [5] = 'avif', [8] = 'gif',
  [9] = 'jxl', [10] = 'raw' }
M.FORMAT_CODES = { jpeg = 1, jpg = 1, png = 2, webp = 3, sixel = 6, symbols = 7 }
M.SESSION_CHANGES = { [1] = 'album', [2] = 'photo', [3] = 'selection', [4] = 'pane_size', [5] = 'closed',
  [6] = 'created', [7] = 'accepted', [8] = 'cancelled', [9] = 'choice' }

-- A session change this client does not know reads as `change-N` (the state after it is still right).
function M.change_name(n) return M.SESSION_CHANGES[n] or ('change-' .. tostring(n)) end

---------------------------------------------------------------------------
-- The message table

local SESSION_STATE = {
  { 'name', 'string' }, { 'title', 'string' }, { 'width', 'u32' }, { 'height', 'u32' },
  { 'max_selection', 'u16' }, { 'selection_count', 'u16' }, { 'album', 'string' },
  { 'album_index', 'u32' }, { 'photo', 'string' }, { 'photo_index', 'u32' },
  { 'photo_count', 'u32' }, { 'message', 'string' },
}
local LIBRARY_INFO = {
  { 'root', 'string' }, { 'album_count', 'u32' }, { 'photo_count', 'u32' }, { 'scan_state', 'u8' },
  { 'scanned_at', 'i64' }, { 'skipped_count', 'u32' },
}
local SCAN_PROGRESS = { { 'state', 'u8' }, { 'files_done', 'u32' }, { 'files_expected', 'u32' }, { 'elapsed_ms', 'u32' } }
local PHOTO = {
  { 'index', 'u32' }, { 'name', 'string' }, { 'path', 'string' }, { 'width', 'u32' }, { 'height', 'u32' },
  { 'bytes', 'u64' }, { 'format', 'format' }, { 'date', 'i64' }, { 'date_source', 'u8' },
}
local IMAGE = { { 'format', 'format' }, { 'width', 'u32' }, { 'height', 'u32' }, { 'data', 'blob' } }
local SESSION_ONLY = { { 'session', 'string' } }
-- An EXIF rational: 0/0 is unknown.
local RATIONAL = { 'struct', { { 'numerator', 'u32' }, { 'denominator', 'u32' } } }
-- getImage/preview flags bit 1 (value 2): the terminal cell size follows, each side 1..1000.
local CELLS = { 'if_flag', 2, { { 'cols', { 'range', 'u16', 1, 1000 } }, { 'rows', { 'range', 'u16', 1, 1000 } } } }

local function with_change(fields)
  local out = { { 'change', 'u8' } }
  for _, f in ipairs(fields) do out[#out + 1] = f end
  return out
end

-- type number -> { name, fields, request = true for requests }
M.MESSAGES = {
  [0x01] = { 'hello', { { 'version', 'u16' }, { 'client_name', 'string' } }, request = true },
  [0x02] = { 'helloReply', {
    { 'version', 'u16' }, { 'server_version', 'string' }, { 'max_request_frame', 'u32' },
    { 'max_reply_frame', 'u32' }, { 'input_formats', { 'list', 'format' } },
    { 'output_formats', { 'list', 'format' } } } },
  [0x03] = { 'error', { { 'code', 'u16' }, { 'message', 'string' } } },
  [0x04] = { 'ping', {}, request = true },
  [0x05] = { 'pong', { { 'server_version', 'string' } } },
  [0x06] = { 'libraryInfo', {}, request = true },
  [0x07] = { 'libraryInfoReply', LIBRARY_INFO },
  [0x08] = { 'scanProgress', {}, request = true },
  [0x09] = { 'scanProgressReply', SCAN_PROGRESS },
  [0x10] = { 'sessionNew', {
    { 'name', 'string' }, { 'width', 'u32' }, { 'height', 'u32' }, { 'max_selection', 'u16' },
    { 'title', 'string' } }, request = true },
  [0x11] = { 'sessionState', SESSION_STATE },
  [0x12] = { 'sessionList', {}, request = true },
  [0x13] = { 'sessionListReply', { { 'sessions', { 'list', { 'struct', SESSION_STATE } } } } },
  [0x14] = { 'sessionShow', SESSION_ONLY, request = true },
  [0x16] = { 'sessionResize', { { 'session', 'string' }, { 'width', 'u32' }, { 'height', 'u32' } }, request = true },
  [0x18] = { 'sessionClose', SESSION_ONLY, request = true },
  [0x19] = { 'sessionClosed', SESSION_ONLY },
  [0x20] = { 'albums', {}, request = true },
  [0x21] = { 'albumsReply', { { 'albums', { 'list', { 'struct', {
    { 'index', 'u32' }, { 'name', 'string' }, { 'photo_count', 'u32' } } } } } } },
  [0x22] = { 'selectAlbum', { { 'session', 'string' }, { 'album', 'selector' } }, request = true },
  [0x24] = { 'photos', { { 'session', 'string' }, { 'sort', 'u8' } }, request = true },
  [0x25] = { 'photosReply', { { 'album', 'string' }, { 'photos', { 'list', { 'struct', PHOTO } } } } },
  [0x26] = { 'selectPhoto', { { 'session', 'string' }, { 'photo', 'selector' } }, request = true },
  [0x28] = { 'stepPhoto', { { 'session', 'string' }, { 'direction', 'u8' } }, request = true },
  [0x2a] = { 'status', SESSION_ONLY, request = true },
  [0x2c] = { 'setSort', { { 'session', 'string' }, { 'sort', 'u8' } }, request = true },
  -- flags (optional) bit 0 asks for the reply's broken list: the rows known broken, with why.
  [0x2e] = { 'photosPage', {
    { 'session', 'string' }, { 'offset', 'u32' }, { 'limit', 'u32' }, { 'flags', { 'tail', 'u8' } } }, request = true },
  [0x2f] = { 'photosPageReply', {
    { 'album', 'string' }, { 'sort', 'u8' }, { 'total', 'u32' }, { 'offset', 'u32' },
    { 'photos', { 'list', { 'struct', PHOTO } } },
    { 'broken', { 'tail', { 'list', { 'struct', { { 'index', 'u32' }, { 'reason', 'string' } } } } } } } },
  [0x30] = { 'getImage', {
    { 'session', 'string' }, { 'format', 'format' }, { 'quality', 'u8' }, { 'flags', 'u8' },
    { 'cells', CELLS } }, request = true },
  [0x31] = { 'image', IMAGE },
  -- photo: nil (kind 0) for the session's current photo. Later fields come in the extension area.
  [0x32] = { 'photoInfo', { { 'session', 'string' }, { 'photo', 'opt_selector' }, { 'extensions', 'extensions' } },
    request = true },
  [0x33] = { 'photoInfoReply', {
    { 'path', 'string' }, { 'name', 'string' }, { 'format', 'format' }, { 'width', 'u32' }, { 'height', 'u32' },
    { 'bytes', 'i64' }, { 'date', 'i64' }, { 'date_source', 'u8' }, { 'camera_make', 'string' },
    { 'camera_model', 'string' }, { 'lens', 'string' }, { 'exposure_time', RATIONAL }, { 'f_number', RATIONAL },
    { 'focal_length', RATIONAL }, { 'iso', 'u32' }, { 'colour_profile', 'string' }, { 'gps', 'bool' },
    { 'extensions', 'extensions' } } },
  [0x40] = { 'toggle', { { 'session', 'string' }, { 'photo', 'selector' } }, request = true },
  [0x42] = { 'selection', SESSION_ONLY, request = true },
  [0x43] = { 'selectionReply', { { 'max_selection', 'u16' }, { 'photos', { 'list', { 'struct', {
    { 'album', 'string' }, { 'name', 'string' }, { 'width', 'u32' }, { 'height', 'u32' },
    { 'path', 'string' }, { 'absolute_path', 'string' } } } } } } },
  [0x44] = { 'clearSelection', SESSION_ONLY, request = true },
  [0x46] = { 'thumbnails', {
    { 'session', 'string' }, { 'cell_size', 'u32' }, { 'page', 'u32' }, { 'flags', 'u8' },
    -- flags bit 2: an output format follows; bit 1: the terminal cells (sixel/symbols pages).
    { 'output', { 'if_flag', 4, { { 'format', 'format' } } } }, { 'cells', CELLS } }, request = true },
  [0x47] = { 'thumbnailsReply', {
    { 'width', 'u32' }, { 'height', 'u32' }, { 'cell_size', 'u32' }, { 'spacing', 'u32' },
    { 'padding', 'u32' }, { 'columns', 'u32' }, { 'rows', 'u32' }, { 'page', 'u32' }, { 'pages', 'u32' },
    { 'cells', { 'list', { 'struct', {
      { 'index', 'u32' }, { 'name', 'string' }, { 'x', 'u32' }, { 'y', 'u32' }, { 'size', 'u32' },
      { 'flags', 'u8' } } } } },
    { 'image', { 'optional', IMAGE } } } },
  [0x48] = { 'preview', {
    { 'session', 'string' }, { 'width', 'u32' }, { 'height', 'u32' }, { 'format', 'format' },
    { 'quality', 'u8' }, { 'flags', { 'tail', 'u8' } }, { 'cells', CELLS } }, request = true },
  [0x50] = { 'subscribe', { { 'session', 'string' }, { 'flags', 'u8' } }, request = true },
  [0x51] = { 'subscribed', { { 'session', 'string' }, { 'flags', 'u8' } } },
  [0x52] = { 'cancel', { { 'request_id', 'u32' } }, request = true },
  [0x53] = { 'cancelReply', { { 'request_id', 'u32' }, { 'found', 'bool' } } },
  [0x54] = { 'sessionFinish', { { 'session', 'string' }, { 'outcome', 'u8' } }, request = true },
  -- A session's choices (the host app's toggles): no options is a check box, value "true"/"false".
  [0x56] = { 'choices', { { 'session', 'string' } }, request = true },
  [0x57] = { 'choicesReply', { { 'choices', { 'list', { 'struct', {
    { 'id', 'string' }, { 'label', 'string' },
    { 'options', { 'list', { 'struct', { { 'id', 'string' }, { 'label', 'string' } } } } },
    { 'value', 'string' } } } } } } },
  [0x58] = { 'setChoice', { { 'session', 'string' }, { 'choice', 'string' }, { 'value', 'string' } }, request = true },
  [0x80] = { 'sessionEvent', with_change(SESSION_STATE) },
  [0x81] = { 'libraryEvent', LIBRARY_INFO },
  [0x82] = { 'libraryChangesEvent', {
    { 'added', { 'list', 'string' } }, { 'removed', { 'list', 'string' } }, { 'changed', { 'list', 'string' } } } },
  [0x83] = { 'scanProgressEvent', SCAN_PROGRESS },
}

-- photoInfo's extension tag 1 (PROTOCOL.md, "Image formats"): an empty request entry asks; the reply's
-- entry is the relative path of the RAW of a RAW+JPEG pair listed as this JPEG (empty: none).
M.RAW_COMPANION_TAG = 1

M.TYPES = {} -- name -> type number
for t, m in pairs(M.MESSAGES) do M.TYPES[m[1]] = t end

-- The name of a type number; `type-0xNN` for one this client does not know.
function M.message_name(t)
  local m = M.MESSAGES[t]
  return m and m[1] or ('type-0x%02x'):format(t)
end

return M
