/**
 * The dashboard's only script (served behind the session, allowed by
 * `script-src 'self'`): reveals the Copy buttons and copies the secret. Without
 * it the secret is still in a read-only field to select by hand.
 */
export const COPY_JS = `document.querySelectorAll('button[data-copy]').forEach(function (b) {
  b.hidden = false;
  b.addEventListener('click', function () {
    var input = document.getElementById(b.getAttribute('data-copy'));
    var status = document.getElementById('copy-status');
    input.select();
    var done = function (ok) { status.textContent = ok ? 'Copied to the clipboard.' : 'Copy failed: press Ctrl+C (or ⌘C) to copy the selected secret.'; };
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).then(function () { done(true); }, function () { done(false); });
    else done(false);
  });
});
`;
