package mcp

import (
	"slices"
	"strings"
)

// catalogue is what the server serves besides tools: its resources,
// resource templates and prompts. A catalogue is never modified once
// served: a change builds a new one and swaps it in, so a request reads
// one consistent catalogue without a lock.
type catalogue struct {
	resources []Resource          // sorted by URI
	templates []*resourceTemplate // sorted by URI template
	prompts   []Prompt            // sorted by name
}

// newCatalogue checks and sorts a catalogue; it fails on resources or
// prompts that cannot be served unambiguously.
func newCatalogue(resources []Resource, templates []*resourceTemplate, prompts []Prompt) (*catalogue, error) {
	if err := checkCatalogue(resources, prompts); err != nil {
		return nil, err
	}
	c := &catalogue{resources: slices.Clone(resources), templates: templates, prompts: slices.Clone(prompts)}
	slices.SortFunc(c.resources, func(a, b Resource) int { return strings.Compare(a.URI, b.URI) })
	slices.SortFunc(c.prompts, func(a, b Prompt) int { return strings.Compare(a.Name, b.Name) })
	return c, nil
}

// prompt returns the prompt named name.
func (c *catalogue) prompt(name string) (*Prompt, bool) {
	i, found := slices.BinarySearchFunc(c.prompts, name, func(p Prompt, name string) int { return strings.Compare(p.Name, name) })
	if !found {
		return nil, false
	}
	return &c.prompts[i], true
}

// cat is the catalogue served now.
func (s *Server) cat() *catalogue { return s.catalogue.Load() }

// change builds a catalogue from the one served with edit and serves it,
// unless edit or the checks refuse it. The sessions are told that the list
// changed when changed says so.
func (s *Server) change(kind listKind, edit func(c *catalogue) (changed bool, err error)) (bool, error) {
	s.catalogueMu.Lock()
	old := s.cat()
	next := &catalogue{resources: slices.Clone(old.resources), templates: old.templates, prompts: slices.Clone(old.prompts)}
	changed, err := edit(next)
	if err == nil && changed {
		next, err = newCatalogue(next.resources, next.templates, next.prompts)
	}
	if err != nil || !changed {
		s.catalogueMu.Unlock()
		return false, err
	}
	s.catalogue.Store(next)
	s.catalogueMu.Unlock()
	s.listChanged(kind)
	return true, nil
}

// AddResource serves r from now on, and tells the clients that the
// resource list changed (notifications/resources/list_changed, see
// Session). A resource whose URI is empty or already served is refused, as
// NewServer refuses it.
func (s *Server) AddResource(r Resource) error {
	_, err := s.change(listResources, func(c *catalogue) (bool, error) {
		c.resources = append(c.resources, r)
		return true, nil
	})
	return err
}

// RemoveResource stops serving the resource at uri and tells the clients
// that the resource list changed; it reports whether there was one.
// Sessions subscribed to it stay subscribed: a resource added again at the
// URI is the same resource to them.
func (s *Server) RemoveResource(uri string) bool {
	removed, _ := s.change(listResources, func(c *catalogue) (bool, error) {
		n := len(c.resources)
		c.resources = slices.DeleteFunc(c.resources, func(r Resource) bool { return r.URI == uri })
		return len(c.resources) < n, nil
	})
	return removed
}

// AddPrompt serves p from now on, and tells the clients that the prompt
// list changed (notifications/prompts/list_changed). A prompt whose name
// is empty or already served, or whose arguments repeat a name, is
// refused, as NewServer refuses it.
func (s *Server) AddPrompt(p Prompt) error {
	_, err := s.change(listPrompts, func(c *catalogue) (bool, error) {
		c.prompts = append(c.prompts, p)
		return true, nil
	})
	return err
}

// RemovePrompt stops serving the prompt named name and tells the clients
// that the prompt list changed; it reports whether there was one.
func (s *Server) RemovePrompt(name string) bool {
	removed, _ := s.change(listPrompts, func(c *catalogue) (bool, error) {
		n := len(c.prompts)
		c.prompts = slices.DeleteFunc(c.prompts, func(p Prompt) bool { return p.Name == name })
		return len(c.prompts) < n, nil
	})
	return removed
}
