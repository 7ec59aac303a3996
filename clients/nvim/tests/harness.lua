-- A tiny test runner for the headless Neovim tests: test(name, fn), eq, wait, run().
-- A test fails by raising; run() prints `ok`/`FAIL`/`SKIPPED` lines and exits nvim with
-- status 1 when any failed.
local M = { tests = {} }

function M.log(...)
  io.stdout:write(table.concat(vim.tbl_map(tostring, { ... }), ' ') .. '\n')
  io.stdout:flush()
end

function M.fail(msg) error(msg, 2) end

function M.eq(want, got, what)
  if not vim.deep_equal(want, got) then
    error(('%s: want %s, got %s'):format(what, vim.inspect(want), vim.inspect(got)), 2)
  end
end

function M.truthy(v, what)
  if not v then error(what, 2) end
  return v
end

function M.wait(what, cond, ms)
  if not vim.wait(ms or 5000, cond, 10) then error('timed out waiting for ' .. what, 2) end
end

-- opts.stop_on_failure: the tests after it depend on it.
function M.test(name, fn, opts)
  M.tests[#M.tests + 1] = { name = name, fn = fn, opts = opts or {} }
end

-- A test calls skip(reason) when something it needs is missing: reported, never a pass.
local SKIP = {}
function M.skip(reason) error({ [SKIP] = true, reason = reason }, 0) end

function M.run(suite)
  local failures, skipped = 0, 0
  for _, t in ipairs(M.tests) do
    local ok, err = xpcall(t.fn, function(e)
      if type(e) == 'table' and e[SKIP] then return e end
      return debug.traceback(tostring(e), 2)
    end)
    if ok then
      M.log('ok   ' .. t.name)
    elseif type(err) == 'table' and err[SKIP] then
      skipped = skipped + 1
      M.log('SKIPPED ' .. t.name .. ': ' .. err.reason)
    else
      failures = failures + 1
      M.log('FAIL ' .. t.name .. '\n     ' .. tostring(err):gsub('\n', '\n     '))
      if t.opts.stop_on_failure then break end
    end
  end
  M.log(('%s: %d tests, %d failed, %d skipped'):format(suite, #M.tests, failures, skipped))
  return failures == 0
end

-- Runs main() and quits nvim with its verdict (status 1 on failure or error).
function M.main(suite, main)
  local ok, res = xpcall(main, debug.traceback)
  if not ok then M.log('error: ' .. tostring(res)) end
  if ok and M.run(suite) then vim.cmd('qall!') else vim.cmd('cquit 1') end
end

return M
