/** The toast after ordering a route: it names the stops that could not be placed instead of hiding them. */
export function routeOrderedText(driverName: string, unplaced: number): string {
  const done = `Ruta de ${driverName} ordenada.`;
  if (unplaced <= 0) return done;
  if (unplaced === 1) return `${done} 1 parada sin ubicación quedó al final.`;
  return `${done} ${unplaced} paradas sin ubicación quedaron al final.`;
}
