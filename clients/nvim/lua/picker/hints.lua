-- Hints belong to the client: the daemon's message says what is wrong, this adds how to fix
-- it in Neovim's terms. Keyed by error name (wire.ERRORS, plus the client's own
-- not_connected/disconnected); unknown codes get no hint and keep their number.
local M = {}

M.HINTS = {
  not_connected = 'start it with `pickerd --library DIR`, or set socket in require("picker").setup{}',
  disconnected = 'pickerd went away; start it again and press R in :PickerOpen',
  no_such_session = ':PickerOpen creates the session',
  nothing_selected = 'choose an album with <CR> in :PickerOpen, then a photo',
  no_such_album = 'the library changed; press R in :PickerOpen to reload',
  no_such_photo = 'the library changed; press R in :PickerOpen to reload',
  selection_full = 'un-pick a photo with <Tab> in :PickerOpen, or :PickerClear',
  too_busy = 'pickerd is busy; try again in a moment',
  unsupported_version = 'this picker.nvim and pickerd speak different protocol versions; update both',
  permission_denied = 'pickerd runs as another user; start your own pickerd',
}

-- "MESSAGE (HINT)" for an error { code, name, message }; the message alone without a hint.
function M.text(err)
  local msg = (err.message and err.message ~= '') and err.message or (err.name or 'error')
  local hint = M.HINTS[err.name] -- a code this client does not know reads as `internal`: no hint
  return hint and (msg .. ' (' .. hint .. ')') or msg
end

return M
