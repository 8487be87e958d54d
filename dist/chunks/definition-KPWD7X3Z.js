import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-MZAZBPKO.js";import"./chunk-K3D5RFA3.js";import"./chunk-ROPBKLJV.js";import"./chunk-GSVTJ2GY.js";import"./chunk-UMRDKENQ.js";import"./chunk-DENFQJJY.js";import"./chunk-SK2YFNFO.js";import"./chunk-YE3PJPS7.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-KJBND4MI.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
