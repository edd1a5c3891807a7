package tournament

// perfectMatching reports whether the n vertices, joined where edge says
// so, can all be paired along edges: whether the graph has a perfect
// matching. It is Edmonds' blossom algorithm, O(n³): it grows a matching
// one augmenting path at a time, shrinking odd cycles (blossoms) as the
// search meets them. A vertex left without an augmenting path stays
// unmatched whatever happens later, so the first such vertex answers no.
//
// The swiss pairing asks it before each choice, so the pairing never
// walks into a dead end and never needs to backtrack.
func perfectMatching(n int, edge func(a, b int) bool) bool {
	if n%2 == 1 {
		return false
	}
	match := make([]int, n)
	parent := make([]int, n)
	base := make([]int, n)
	used := make([]bool, n)
	inBlossom := make([]bool, n)
	onPath := make([]bool, n)
	queue := make([]int, 0, n)
	for i := range match {
		match[i] = -1
	}

	// lca is the base of the blossom closed by the edge a–b: the first
	// common vertex of their paths up the alternating tree.
	lca := func(a, b int) int {
		clear(onPath)
		for {
			a = base[a]
			onPath[a] = true
			if match[a] == -1 {
				break
			}
			a = parent[match[a]]
		}
		for {
			b = base[b]
			if onPath[b] {
				return b
			}
			b = parent[match[b]]
		}
	}
	markPath := func(v, b, child int) {
		for base[v] != b {
			inBlossom[base[v]] = true
			inBlossom[base[match[v]]] = true
			parent[v] = child
			child = match[v]
			v = parent[match[v]]
		}
	}
	// augmentingPath searches from the unmatched root for an unmatched
	// vertex at the end of an alternating path, returning it or −1.
	augmentingPath := func(root int) int {
		for i := range n {
			used[i], parent[i], base[i] = false, -1, i
		}
		used[root] = true
		queue = append(queue[:0], root)
		for head := 0; head < len(queue); head++ {
			v := queue[head]
			for to := range n {
				if to == v || !edge(v, to) || base[v] == base[to] || match[v] == to {
					continue
				}
				if to == root || match[to] != -1 && parent[match[to]] != -1 {
					b := lca(v, to)
					clear(inBlossom)
					markPath(v, b, to)
					markPath(to, b, v)
					for i := range n {
						if inBlossom[base[i]] {
							base[i] = b
							if !used[i] {
								used[i] = true
								queue = append(queue, i)
							}
						}
					}
				} else if parent[to] == -1 {
					parent[to] = v
					if match[to] == -1 {
						return to
					}
					used[match[to]] = true
					queue = append(queue, match[to])
				}
			}
		}
		return -1
	}
	for v := range n {
		if match[v] != -1 {
			continue
		}
		u := augmentingPath(v)
		if u == -1 {
			return false
		}
		for u != -1 { // flip the path's edges in and out of the matching
			pv := parent[u]
			next := match[pv]
			match[u], match[pv] = pv, u
			u = next
		}
	}
	return true
}
