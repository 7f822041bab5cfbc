// The first control of every signed-in page: moves focus to the content (#main) without touching the hash, which
// holds the route.
export function SkipLink() {
  return (
    <a
      class="skip-link"
      href="#main"
      onClick={(e) => {
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}
    >
      Skip to content
    </a>
  );
}
