import { UnbuiltAreaPage } from '../../components/area-page';

export function Component() {
  return <UnbuiltAreaPage title="Crear tu panadería" />;
}
