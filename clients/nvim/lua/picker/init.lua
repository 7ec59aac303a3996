-- pickerd photo picker for Neovim 0.7+: configuration and the Lua API behind the user
-- commands (plugin/picker.lua).
-- Speaks pickerd's protocol on the socket itself (lua/picker/wire.lua, conn.lua): one
-- connection per picker window carries its requests (pipelined) and its event subscription.
-- The work is in picker.follow (the daemon's state and events), picker.window (the picker
-- window and its actions) and picker.insert (inserting the picks).
local follow = require('picker.follow')
local window = require('picker.window')
local insert = require('picker.insert')

local M = {}

-- The session when setup{} names none: $PICKER_SESSION (the rule every pickerd client follows),
-- else 'nvim'.
local function default_session()
  local env = vim.env.PICKER_SESSION
  if env and env ~= '' then return env end
  return 'nvim'
end

local defaults = {
  socket = nil,
  session = default_session(),
  width = 800,
  height = 600,
  kitty = false,
  formats = { markdown = '![](%s)', default = '%s' },
}

M.config = vim.deepcopy(defaults)

function M.setup(opts)
  opts = opts or {}
  local cfg = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts)
  if opts.formats then
    -- A user table replaces the format list, but `default` stays defined.
    cfg.formats = vim.tbl_extend('force', { default = defaults.formats.default }, opts.formats)
  end
  M.config = cfg
  return M
end

-- The picker window (picker.window): open(session), close() and the actions of its mappings.
M.open, M._open_ui, M.close = window.open, window._open_ui, window.close
M.select, M.toggle, M.switch_pane, M.refresh = window.select, window.toggle, window.switch_pane, window.refresh
M._follow_cursor_to_current = follow.follow_cursor_to_current

-- Inserting the picks (picker.insert).
M.format_for, M.format_photo = insert.format_for, insert.format_photo
M.clear, M.insert = insert.clear, insert.insert

-- For tests and statuslines: the open picker's state, or nil.
function M.state()
  return follow.current
end

return M
