-- A Neovim session, headless, with hazard-dsl lsp as its language server: what docs/editors.md
-- says an author gets, done through Neovim's own LSP client (no plugin) and checked. Run by
-- tests/test_lsp_editor.py, or by hand (Neovim 0.7 or later):
--
--   HAZARD_FILE=/tmp/mine.hazard.yaml HAZARD_LSP="hazard-dsl lsp" HAZARD_CHECK="hazard-dsl check" \
--     nvim --headless -u NONE -c "luafile tests/editors/nvim_check.lua"
--
-- HAZARD_FILE: a copy of tests/rulesets/editor/small.yaml with `goto point` misspelt `goto piont`.
-- Each step prints "ok: …"; a failed one prints "FAILED: …" and the session exits 1.
-- (vim.lsp.start_client and buf_attach_client, not vim.lsp.start: Debian 12's Neovim is 0.7.)

local function say(text) io.stdout:write(text .. "\n") end
local function fail(text) say("FAILED: " .. text); vim.cmd("cquit 1") end

local file = os.getenv("HAZARD_FILE")
local command = vim.split(os.getenv("HAZARD_LSP") or "hazard-dsl lsp", " ", { trimempty = true })
vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
vim.bo[buf].filetype = "yaml"

local id = vim.lsp.start_client({ name = "hazard-dsl", cmd = command, root_dir = vim.fn.fnamemodify(file, ":h"),
                                  flags = { debounce_text_changes = 0 } })
if not id then fail("the server did not start") end
vim.lsp.buf_attach_client(buf, id)
local client = vim.lsp.get_client_by_id(id)

local function lines() return vim.api.nvim_buf_get_lines(buf, 0, -1, false) end
local function place(word, on)  -- the LSP position of `word` on the first line holding `on`
  for number, line in ipairs(lines()) do
    local at = line:find(on, 1, true)
    if at then return { line = number - 1, character = line:find(word, at, true) - 1 } end
  end
  fail("no line holds " .. on)
end
local function ask(method, params)
  local answer, err = client.request_sync(method, params, 20000, buf)
  if not answer or answer.err then fail(method .. ": " .. vim.inspect(err or answer.err)) end
  return answer.result
end
local function errors() return vim.diagnostic.get(buf, { severity = vim.diagnostic.severity.ERROR }) end
local doc = { uri = vim.uri_from_bufnr(buf) }

-- diagnostics as the file is opened: the misspelt phase, on its word
if not vim.wait(20000, function() return #errors() > 0 end, 20) then fail("no diagnostic arrived") end
local d = errors()[1]
if not d.message:find("no phase 'piont'", 1, true) then fail("diagnostic: " .. d.message) end
say(("ok: diagnostic on line %d, columns %d-%d: %s"):format(d.lnum + 1, d.col, d.end_col, d.message:match("[^\n]*")))

-- the quick fix, applied as vim.lsp.buf.code_action() would
local where = { start = { line = d.lnum, character = d.col }, ["end"] = { line = d.end_lnum, character = d.end_col } }
local actions = ask("textDocument/codeAction", { textDocument = doc, range = where, context = { diagnostics = {} } })
local fix
for _, action in ipairs(actions or {}) do
  if action.title:find("point", 1, true) then fix = action end
end
if not fix then fail("no quick fix: " .. vim.inspect(actions)) end
vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
if not vim.wait(20000, function() return #errors() == 0 end, 20) then fail("the fix left " .. errors()[1].message) end
say("ok: quick fix '" .. fix.title .. "' applied; no error left")

-- hover over a variable in a condition
local hover = ask("textDocument/hover", { textDocument = doc, position = place("main", "total == main") })
local shown = hover and hover.contents and (hover.contents.value or hover.contents) or ""
if type(shown) ~= "string" or not shown:find("main", 1, true) then fail("hover: " .. vim.inspect(hover)) end
say("ok: hover: " .. shown:match("[^\n]*"))

-- inlay hints: each rule's figure, as `hazard-dsl analyse` works it out
local all = { start = { line = 0, character = 0 }, ["end"] = { line = #lines(), character = 0 } }
local hints = ask("textDocument/inlayHint", { textDocument = doc, range = all })
if not hints or #hints == 0 then fail("no inlay hint") end
local label = hints[1].label
if type(label) == "table" then label = label[1].value end
say(("ok: %d inlay hints, the first on line %d: %s"):format(#hints, hints[1].position.line + 1, label))

-- rename the phase `point`: its key, `goto point` and nothing else called point
local renamed = ask("textDocument/rename", { textDocument = doc, position = place("point", "goto point"),
                                             newName = "rolling" })
vim.lsp.util.apply_workspace_edit(renamed, client.offset_encoding)
local text = table.concat(lines(), "\n")
if not (text:find("goto rolling", 1, true) and text:find("\n  rolling:", 1, true)) then fail("rename:\n" .. text) end
-- what the buffer now holds, checked by `hazard-dsl check` itself
local copy = vim.fn.fnamemodify(file, ":r:r") .. ".renamed.hazard.yaml"
vim.fn.writefile(lines(), copy)
local check = vim.split(os.getenv("HAZARD_CHECK") or "hazard-dsl check", " ", { trimempty = true })
table.insert(check, copy)
local said = vim.fn.system(check)
if vim.v.shell_error ~= 0 then fail("check after the rename: " .. said) end
say("ok: rename point -> rolling; hazard-dsl check: ok")

vim.lsp.stop_client(id)
vim.cmd("qall!")
