-- pickerd photo picker: user commands. Configure with require('picker').setup{...}.
if vim.g.loaded_picker then return end
vim.g.loaded_picker = true

if vim.fn.has('nvim-0.7') == 0 then
  vim.api.nvim_err_writeln('picker.nvim needs Neovim 0.7 or newer')
  return
end

local cmd = vim.api.nvim_create_user_command

cmd('PickerOpen', function(o) require('picker').open(o.args) end,
  { nargs = '?', desc = 'Open the photo picker (optional: session name)' })
cmd('PickerClose', function() require('picker').close() end, { desc = 'Close the photo picker' })
cmd('PickerInsert', function(o)
  local fmt = o.args ~= '' and o.args or nil
  if fmt and not fmt:find('%s', 1, true) then
    local named = require('picker').config.formats[fmt]
    if named == nil then
      vim.notify(('picker: no format %q in setup{formats}; give a name or a string with %%s'):format(fmt),
        vim.log.levels.ERROR)
      return
    end
    fmt = named
  end
  require('picker').insert({ format = fmt })
end, { nargs = '?', desc = 'Insert the picked photos at the cursor (optional: format name or string with %s)' })
cmd('PickerClear', function() require('picker').clear() end, { desc = 'Empty the pick list' })

vim.api.nvim_create_autocmd('VimLeavePre', {
  group = vim.api.nvim_create_augroup('picker_leave', { clear = true }),
  callback = function() pcall(function() require('picker').close() end) end,
})
